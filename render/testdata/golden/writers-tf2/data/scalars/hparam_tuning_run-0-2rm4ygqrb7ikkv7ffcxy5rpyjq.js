window.trainreport&&window.trainreport.dataLoaded("scalars/hparam_tuning_run-0-2rm4ygqrb7ikkv7ffcxy5rpyjq.js",
{"layout":2,"run":"hparam_tuning/run-0","scalars":{"accuracy":{"count":5,"step":{"first":0,"stride":1},"wall_time":{"scale":6,"base":1795319779783556,"delta":[0,719,730,646,522]},"value":[0.09,0.2143494,0.3196098,0.4087098,0.4841325]}}}
);
