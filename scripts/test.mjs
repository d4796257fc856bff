// `npm test`: a production build, Vitest (unit, and integration on PGlite or TEST_DATABASE_URL), the
// fuzz suite against that build (tests/fuzz, docs/decisions/0073), then the Playwright end-to-end
// suite in Chromium against it. Outside CI, a machine without Chromium runs everything else and
// says clearly that the browser tests were skipped.
//   What runs on which database (docs/decisions/0117): by default everything runs on this run's
// database. TEST_SPLIT=1 says the run is one of CI's two passes (.ci/run): then the PGlite pass runs
// only the integration files that test what the embedded database does itself (`pgliteSmoke` in
// vitest.config.ts) and the end-to-end suite, and the PostgreSQL pass runs everything: the unit
// tests and the fuzz suite need no second database, and PostgreSQL is the production database.
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { chromiumPath } from './chromium-path.mjs'

const started = Date.now()
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`
const run = (title, command, args, env = {}) => {
	console.log(`\n▶ ${title}\n`)
	const since = Date.now()
	const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
	if (result.status !== 0) process.exit(result.status ?? 1)
	console.log(`\n✓ ${title}: ${seconds(since)}`)
}
const onServer = Boolean(process.env.TEST_DATABASE_URL)
const database = onServer ? `PostgreSQL server (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})` : 'embedded PGlite'
// CI's embedded pass: the PostgreSQL pass after it runs the rest.
const smokeOnly = process.env.TEST_SPLIT === '1' && !onServer

console.log(
	smokeOnly
		? `\nnpm test on ${database}, CI's embedded pass (TEST_SPLIT=1): the build, the integration files that test the embedded database (pgliteSmoke in vitest.config.ts) and the end-to-end suite; the unit tests, the other integration files and the fuzz suite run in the PostgreSQL pass (docs/decisions/0117).`
		: `\nnpm test on ${database}: the build, unit and integration tests, the fuzz suite and the end-to-end suite.`,
)

// The build comes first: it checks the widgets' size budget, and the unit tests measure what it built
// (tests/unit/widgets-size.test.ts never builds). CI's second pass (the other database) tests the same
// commit: it may reuse the first pass's build.
if (process.env.REUSE_BUILD === '1' && existsSync('build/server/index.js') && existsSync('server-build/index.js') && existsSync('public/widgets/widgets.js')) console.log('\n▶ building the portal: reusing the build')
else run('building the portal', 'npm', ['run', 'build'])

if (smokeOnly) run(`the integration smoke files on ${database}`, 'npx', ['vitest', 'run', '--project', 'integration'], { TEST_INTEGRATION: 'pglite-smoke' })
else {
	run(`unit and integration tests on ${database}`, 'npx', ['vitest', 'run'])
	run(`the fuzz suite against the build on ${database}`, 'npx', ['vitest', 'run', '--config', 'vitest.fuzz.config.ts'])
}

if (!existsSync(chromiumPath)) {
	const message = `Chromium was not found at ${chromiumPath}: the end-to-end tests need it (apt-get install -y chromium-headless-shell or chromium, or set CHROMIUM_PATH).`
	if (process.env.CI) {
		console.error(`✖ ${message}`)
		process.exit(1)
	}
	console.warn(`\n⚠ ${message}\n⚠ END-TO-END TESTS SKIPPED.\n`)
	process.exit(0)
}

rmSync('playwright-report/results.json', { force: true })
run(`end-to-end tests in ${chromiumPath} on ${database}`, 'npx', ['playwright', 'test'])
console.log(`\nnpm test on ${database}: all passed in ${seconds(started)}`)
