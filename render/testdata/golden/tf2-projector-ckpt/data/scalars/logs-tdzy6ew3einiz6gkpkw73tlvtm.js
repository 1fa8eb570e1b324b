window.trainreport&&window.trainreport.dataLoaded("scalars/logs-tdzy6ew3einiz6gkpkw73tlvtm.js",
{"layout":3,"runs":{"logs":{"scalars":{"loss":{"count":5,"step":{"first":0,"stride":1},"wall_time":{"scale":6,"base":1584802261270234,"delta":[0,14219905,14437551,13051778,12554563]},"value":[0.4627838,0.2853324,0.2304316,0.18508673,0.15886694]},"val_loss":{"count":5,"step":{"first":0,"stride":1},"wall_time":{"scale":6,"base":1584802261270930,"delta":[0,14219538,14437443,13051927,12554462]},"value":[0.4562232,0.31301785,0.28677326,0.2864984,0.28752187]}}}}}
);
