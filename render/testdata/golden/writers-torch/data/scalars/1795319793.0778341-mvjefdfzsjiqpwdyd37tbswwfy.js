window.trainreport&&window.trainreport.dataLoaded("scalars/1795319793.0778341-mvjefdfzsjiqpwdyd37tbswwfy.js",
{"layout":2,"run":"1795319793.0778341","scalars":{"hparam/accuracy":{"count":1,"step":{"first":0,"stride":0},"wall_time":{"scale":6,"base":1795319793079116,"delta":[0]},"value":[0.91]},"hparam/loss":{"count":1,"step":{"first":0,"stride":0},"wall_time":{"scale":6,"base":1795319793079134,"delta":[0]},"value":[0.2]}}}
);
