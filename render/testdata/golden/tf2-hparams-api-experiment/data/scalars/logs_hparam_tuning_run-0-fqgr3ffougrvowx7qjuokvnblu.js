window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-0-fqgr3ffougrvowx7qjuokvnblu.js",
{"layout":2,"run":"logs/hparam_tuning/run-0","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792162816727,"delta":[0]},"value":[0.8397]}}}
);
