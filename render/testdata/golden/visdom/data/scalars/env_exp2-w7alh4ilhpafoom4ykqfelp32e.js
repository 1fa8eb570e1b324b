window.trainreport&&window.trainreport.dataLoaded("scalars/env_exp2-w7alh4ilhpafoom4ykqfelp32e.js",
{"layout":2,"run":"env/exp2","scalars":{"loss/train":{"count":3,"step":{"first":0,"stride":1},"wall_time":{"scale":0,"base":0,"delta":[0,0,0]},"value":[2,1,0.5]}}}
);
