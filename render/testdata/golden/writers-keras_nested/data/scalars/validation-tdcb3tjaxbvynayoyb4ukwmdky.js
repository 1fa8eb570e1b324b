window.trainreport&&window.trainreport.dataLoaded("scalars/validation-tdcb3tjaxbvynayoyb4ukwmdky.js",
{"layout":2,"run":"validation","scalars":{"epoch_loss":{"count":1,"step":{"first":0,"stride":0},"wall_time":{"scale":6,"base":1795699059458497,"delta":[0]},"value":[0.64791524]},"evaluation_loss_vs_iterations":{"count":1,"step":{"first":2,"stride":0},"wall_time":{"scale":6,"base":1795699059362139,"delta":[0]},"value":[0.64791524]}}}
);
