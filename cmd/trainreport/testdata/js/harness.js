// Probes of the test harness itself (browser_test.go's testHarness).
({
	// problems reports a console error and warning and throws an uncaught
	// exception, each naming the probe, and resolves once it has thrown:
	// timers of the same delay run in the order set. The test waits for
	// the records of them.
	problems() {
		return new Promise(resolve => {
			console.error("trainreport-harness-probe error");
			console.warn("trainreport-harness-probe warning");
			setTimeout(() => { throw new Error("trainreport-harness-probe exception"); }, 0);
			setTimeout(resolve, 0);
		});
	},
})
