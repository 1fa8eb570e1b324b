window.trainreport&&window.trainreport.dataLoaded("scalars/tmp_alaki_tile_eval-v23wlvxykon4blv5cqbtcf7mpa.js",
{"layout":2,"run":"tmp/alaki/tile/eval","scalars":{"loss":{"count":1,"step":{"first":40000,"stride":0},"wall_time":{"scale":6,"base":1560450705171721,"delta":[0]},"value":[1.6451606]}}}
);
