window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-1-ngolrask3eo6yw72vvsqjnafbi.js",
{"layout":2,"run":"logs/hparam_tuning/run-1","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792168468827,"delta":[0]},"value":[0.7925]}}}
);
