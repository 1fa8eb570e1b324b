window.trainreport&&window.trainreport.dataLoaded("scalars/tsvis-vdlnkcwxspvpxr2m55wc7slozm.js",
{"layout":2,"run":"tsvis","scalars":{"loss":{"count":8,"step":{"first":0,"stride":1},"wall_time":{"scale":0,"base":1700000000,"delta":[0,5,5,5,5,5,5,5]},"value":[1.5,1.35,1.215,1.0935,0.98415,0.885735,0.7971615,0.7174454]}}}
);
