window.trainreport&&window.trainreport.dataLoaded("scalars/python_nan-7ebddsst2lscyx3neqqjkt7xke.js",
{"layout":2,"run":"python/nan","scalars":{"main/loss/train":{"count":5,"step":{"first":1,"stride":1},"wall_time":{"scale":0,"base":0,"delta":[0,0,0,0,0]},"value":[0.5,"NaN","Infinity","-Infinity","NaN"]},"nan/loss/train":{"count":4,"step":{"first":1,"stride":1},"wall_time":{"scale":0,"base":0,"delta":[0,0,0,0]},"value":[0.5,"NaN","Infinity","-Infinity"]}}}
);
