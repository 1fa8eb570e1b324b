window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-7-2npcatwaycqg3vjbnnvte476u4.js",
{"layout":2,"run":"logs/hparam_tuning/run-7","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792207034369,"delta":[0]},"value":[0.7689]}}}
);
