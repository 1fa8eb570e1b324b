window.trainreport&&window.trainreport.dataLoaded("scalars/hparam_tuning_run-2-ivwrdecfcora6lvyqn2f2s7jxq.js",
{"layout":2,"run":"hparam_tuning/run-2","scalars":{"accuracy":{"count":5,"step":{"first":0,"stride":1},"wall_time":{"scale":6,"base":1795319779793504,"delta":[0,675,698,646,579]},"value":[0.096,0.22863936,0.3409171,0.43595713,0.516408]}}}
);
