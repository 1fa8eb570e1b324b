window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-6-gd3ydgsltvzjq46addh3bphaxe.js",
{"layout":2,"run":"logs/hparam_tuning/run-6","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792201452964,"delta":[0]},"value":[0.8448]}}}
);
