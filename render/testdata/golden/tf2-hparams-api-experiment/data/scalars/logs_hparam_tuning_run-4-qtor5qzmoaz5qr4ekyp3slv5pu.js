window.trainreport&&window.trainreport.dataLoaded("scalars/logs_hparam_tuning_run-4-qtor5qzmoaz5qr4ekyp3slv5pu.js",
{"layout":2,"run":"logs/hparam_tuning/run-4","scalars":{"accuracy":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1585792188375039,"delta":[0]},"value":[0.8361]}}}
);
