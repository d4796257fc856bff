// Starts the built portal for the end-to-end tests on a fresh database loaded with the demo data
// (embedded PGlite in tests/.tmp, or a new database on the server named by TEST_DATABASE_URL), with
// a real SMTP server beside it: every e-mail the portal sends lands as JSON in tests/.tmp/mail-<port>.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'

const root = fileURLToPath(new URL('../..', import.meta.url))
process.chdir(root)
const port = process.env.PORT ?? '3210'
const serverUrl = process.env.TEST_DATABASE_URL

if (serverUrl) {
	const name = `autohub_e2e_${port}`
	const client = new pg.Client({ connectionString: serverUrl })
	await client.connect()
	await client.query(`drop database if exists "${name}" with (force)`)
	await client.query(`create database "${name}"`)
	await client.end()
	const url = new URL(serverUrl)
	url.pathname = `/${name}`
	process.env.DATABASE_URL = url.toString()
	process.env.SEED_DEMO_DATA = 'true'
} else {
	const dataDir = `tests/.tmp/e2e-data-${port}`
	rmSync(dataDir, { recursive: true, force: true })
	delete process.env.DATABASE_URL
	process.env.DATA_DIR = dataDir
}

const mailDir = `tests/.tmp/mail-${port}`
rmSync(mailDir, { recursive: true, force: true })
mkdirSync(mailDir, { recursive: true })
let received = 0
const smtp = new SMTPServer({
	authOptional: true,
	disabledCommands: ['STARTTLS'],
	logger: false,
	onData(stream, session, callback) {
		const chunks = []
		stream.on('data', (chunk) => chunks.push(chunk))
		stream.on('end', async () => {
			const mail = await PostalMime.parse(Buffer.concat(chunks))
			const record = {
				to: session.envelope.rcptTo.map((r) => r.address),
				subject: mail.subject ?? '',
				text: mail.text ?? '',
				html: mail.html ?? '',
				headers: Object.fromEntries(mail.headers.map((header) => [header.key.toLowerCase(), header.value])),
				attachments: mail.attachments.map((a) => ({ filename: a.filename, mimeType: a.mimeType })),
				receivedAt: new Date().toISOString(),
			}
			// Written whole, then renamed, so a test never reads half a file.
			const name = `${mailDir}/${String(++received).padStart(5, '0')}.json`
			writeFileSync(`${name}.tmp`, JSON.stringify(record, null, 2))
			renameSync(`${name}.tmp`, name)
			callback()
		})
	},
})
// A dropped client connection is an 'error' event; unheard it would stop the test server.
smtp.on('error', (error) => console.error('[smtp sink]', error.message))
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve))
process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.server.address().port}`
process.env.OUTBOX_POLL_MS = '200'
// A booked time's reminder arrives within seconds (on PostgreSQL: pg-boss's cron, every minute).
process.env.BOOKING_REMINDERS_POLL_MS = '5000'

// eID (issue 36, decision 0150): the tests' own OpenID provider, TARA-shaped, beside the portal;
// E2E_EID=off leaves eID unconfigured, as a portal without a provider.
if (process.env.E2E_EID !== 'off') {
	const { startTestOpenIdProvider } = await import('../support/openid-provider.mjs')
	const provider = await startTestOpenIdProvider({ redirectUris: [`http://127.0.0.1:${port}/eid/callback`] })
	process.env.OIDC_ISSUER = provider.issuer
	process.env.OIDC_CLIENT_ID = provider.clientId
	process.env.OIDC_CLIENT_SECRET = provider.clientSecret
	process.env.EID_HASH_SECRET = 'end-to-end-tests-eid-hash-secret-0123456789'
}

process.env.NODE_ENV = 'production'
// The production build, but with the tests' scrypt cost: a hundred sign-ups and sign-ins at the full
// cost (128 MiB, half a second or more each) were minutes of this suite. Only test servers set it;
// the fuzz suite and tests/unit/password-cost.test.ts keep the full cost (docs/decisions/0076).
process.env.TEST_ONLY_CHEAP_PASSWORD_HASHING = 'true'
process.env.PORT = port
process.env.HOST = '127.0.0.1'
process.env.APP_URL = `http://127.0.0.1:${port}`
process.env.SESSION_SECRET ??= 'end-to-end-tests-session-secret-0123456789'
process.env.LOG_LEVEL ??= 'warn'
// As behind a proxy: each test sends its own X-Forwarded-For, so per-IP rate limits do not spill between tests.
process.env.TRUST_PROXY = 'loopback'
// One web process, as on the embedded database: both passes test the same thing (several processes
// are tested in tests/e2e/server-start.spec.ts).
process.env.WEB_CONCURRENCY ??= '1'
await import('../../server-build/index.js')
