window.trainreport&&window.trainreport.dataLoaded("scalars/lightning_logs_version_0-ft7ropzmmwjtvnzcvqicwbmuai.js",
{"layout":3,"runs":{"lightning_logs/version_0":{"scalars":{"hp_metric":{"count":1,"step":{"first":0,"stride":0},"wall_time":[1679899924.4921947],"value":[-1]}}}}}
);
