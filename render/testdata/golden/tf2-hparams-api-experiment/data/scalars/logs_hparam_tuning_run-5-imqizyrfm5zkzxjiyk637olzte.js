window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-5-imqizyrfm5zkzxjiyk637olzte.js",
{"layout":2,"run":"logs/hparam_tuning/run-5","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792194288148,"delta":[0]},"value":[0.7254]}}}
);
