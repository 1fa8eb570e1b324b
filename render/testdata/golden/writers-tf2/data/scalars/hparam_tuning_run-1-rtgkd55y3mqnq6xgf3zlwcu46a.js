window.trainreport&&window.trainreport.dataLoaded("scalars/hparam_tuning_run-1-rtgkd55y3mqnq6xgf3zlwcu46a.js",
{"layout":2,"run":"hparam_tuning/run-1","scalars":{"accuracy":{"count":5,"step":{"first":0,"stride":1},"wall_time":{"scale":6,"base":1795319779788426,"delta":[0,821,729,704,585]},"value":[0.093,0.22149438,0.33026347,0.42233345,0.50027025]}}}
);
