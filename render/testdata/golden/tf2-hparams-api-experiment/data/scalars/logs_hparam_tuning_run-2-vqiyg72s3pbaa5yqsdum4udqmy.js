window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-2-vqiyg72s3pbaa5yqsdum4udqmy.js",
{"layout":2,"run":"logs/hparam_tuning/run-2","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792174982996,"delta":[0]},"value":[0.836]}}}
);
