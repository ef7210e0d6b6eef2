// Runs before the app's modules: zod reads this when it loads. Without `jitless` it probes `new Function`
// while building schemas, and Chromium reports the refused (and caught) eval as a CSP violation.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
