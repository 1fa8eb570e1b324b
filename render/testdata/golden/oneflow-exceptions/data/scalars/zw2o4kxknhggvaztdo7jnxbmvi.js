window.trainreport&&window.trainreport.dataLoaded("scalars/zw2o4kxknhggvaztdo7jnxbmvi.js",
{"layout":2,"run":".","scalars":{"loss":{"count":16,"step":{"first":0,"stride":1},"wall_time":{"scale":0,"base":1700000000,"delta":[0,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10]},"value":[2.1,1.8,1.545,1.32825,1.1440125,0.9874106,0.854299,0.7411542,0.644981,0.5632339,0.4937488,0.43468648,0.38448352,0.341811,0.30553934,0.27470845]}}}
);
