window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-3-k7b7nlz2fsnh5uikrcr2dz2lce.js",
{"layout":2,"run":"logs/hparam_tuning/run-3","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792180335125,"delta":[0]},"value":[0.7978]}}}
);
