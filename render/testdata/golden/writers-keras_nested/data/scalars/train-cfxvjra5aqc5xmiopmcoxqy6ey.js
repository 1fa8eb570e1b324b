window.trainreport&&window.trainreport.dataLoaded("scalars/train-cfxvjra5aqc5xmiopmcoxqy6ey.js",
{"layout":2,"run":"train","scalars":{"epoch_learning_rate":{"count":1,"step":{"first":0,"stride":0},"wall_time":{"scale":6,"base":1795699059458087,"delta":[0]},"value":[0.001]},"epoch_loss":{"count":1,"step":{"first":0,"stride":0},"wall_time":{"scale":6,"base":1795699059457497,"delta":[0]},"value":[0.7029986]}}}
);
