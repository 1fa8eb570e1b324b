window.trainreport&&window.trainreport.dataLoaded("scalars/1795319766.477566-q2ovgsezfdwqqnljuq7qx3pl2y.js",
{"layout":2,"run":"1795319766.477566","scalars":{"hparam/accuracy":{"count":1,"step":{"first":0,"stride":0},"wall_time":[1795319766.4795253],"value":[0.93]}}}
);
