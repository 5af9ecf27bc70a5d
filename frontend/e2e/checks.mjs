// checks counts an end-to-end script's checks and prints each one as
// "<name>: ok   …" or "<name>: FAIL … — detail"; fail counts an error
// that stopped the script; done prints
// "<name>: N passed, M failed" (and what follows) and ends the process,
// non-zero when a check failed. Makefile's test summary reads these lines.
export function checks(name, { detailLimit = 0 } = {}) {
  let passed = 0;
  let failed = 0;
  return {
    check(what, ok, detail = '') {
      if (ok) {
        passed++;
        console.log(`${name}: ok   ${what}`);
        return;
      }
      failed++;
      let d = detail === '' || detail == null ? '' : String(detail);
      if (detailLimit > 0) d = d.slice(0, detailLimit);
      console.log(`${name}: FAIL ${what}${d ? ` — ${d}` : ''}`);
    },
    // fail counts a failure that is not one check's (the script stopped
    // on an error) and prints it.
    fail(message) {
      failed++;
      console.log(`${name}: FAIL ${message}`);
    },
    done(suffix = '') {
      console.log(`${name}: ${passed} passed, ${failed} failed${suffix}`);
      process.exit(failed ? 1 : 0);
    },
  };
}
