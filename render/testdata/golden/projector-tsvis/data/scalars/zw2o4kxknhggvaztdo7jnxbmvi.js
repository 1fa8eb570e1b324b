window.trainreport&&window.trainreport.dataLoaded("scalars/zw2o4kxknhggvaztdo7jnxbmvi.js",
{"layout":3,"runs":{".":{"scalars":{"loss":{"count":1,"step":{"first":1,"stride":0},"wall_time":{"scale":6,"base":1795320779126657,"delta":[0]},"value":[0.5]}}}}}
);
