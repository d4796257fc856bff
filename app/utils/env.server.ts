import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { projectRoot } from './paths.server'

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me-0123456789'

const EnvSchema = z.object({
	NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
	PORT: z.coerce.number().int().min(1).max(65535).default(3000),
	/** Where the embedded database, uploads and invoices live. */
	DATA_DIR: z.string().min(1).default('./data'),
	/** A PostgreSQL server; without it the app runs on embedded PGlite in DATA_DIR. */
	DATABASE_URL: z.string().url().optional(),
	/** Signs cookies. Without it: generated once into DATA_DIR on the embedded database; required with DATABASE_URL. */
	SESSION_SECRET: z.string().min(32).optional(),
	/** Instead of SESSION_SECRET, for rotation: comma-separated; the first signs, every one verifies (decision 0142). */
	SESSION_SECRETS: z
		.string()
		.transform((value) => value.split(',').map((secret) => secret.trim()).filter(Boolean))
		.pipe(z.array(z.string().min(32, 'each secret needs at least 32 characters')).min(1))
		.optional(),
	/** The address the server listens on. */
	HOST: z.string().regex(/^[\w.:-]+$/, 'an IP address or a host name').default('0.0.0.0'),
	/** Express `trust proxy`: true/false, a hop count, or addresses, subnets and loopback/linklocal/uniquelocal, comma-separated. */
	TRUST_PROXY: z.string().refine(isTrustProxyValue, 'true, false, a hop count, or comma-separated IP addresses, subnets or loopback/linklocal/uniquelocal').optional(),
	/** The address the portal is reached at, for links in e-mails and widgets' images; default: http://localhost:$PORT. */
	APP_URL: z.string().url().optional(),
	/** Load demo data into an empty database at start. Default: on for the embedded database only. */
	SEED_DEMO_DATA: z.enum(['true', 'false']).optional(),
	LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
	/** An SMTP server for the e-mail outbox, e.g. smtp://user:pass@host:587; without it e-mails are logged. */
	SMTP_URL: z.string().url().optional(),
	/** `true`: e-mails are kept as files under DATA_DIR/mail, never sent; says so on purpose where production wants SMTP_URL (decision 0142). */
	EMAIL_TO_DISK: z.enum(['true', 'false']).optional(),
	MAIL_FROM: z.string().min(3).default('Autohub <no-reply@autohub.example>'),
	/** How often the background worker looks at the outbox. */
	OUTBOX_POLL_MS: z.coerce.number().int().min(100).default(2000),
	/** VAT on invoices in percent (e.g. 24); without it the site settings' rate (24 % in Estonia since July 2025). */
	VAT_RATE_PERCENT: z.coerce.number().min(0).max(100).optional(),
	/** Both set: paid packages go through Stripe Checkout; otherwise through the built-in test provider. */
	STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
	STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
	/** How often the background worker renews or expires due subscriptions. */
	SUBSCRIPTION_POLL_MS: z.coerce.number().int().min(1000).default(15 * 60 * 1000),
	/** How often booked times due a reminder are looked for (a reminder is late by at most this). */
	BOOKING_REMINDERS_POLL_MS: z.coerce.number().int().min(1000).default(5 * 60 * 1000),
	/** `false`: this web process runs no background jobs (`npm run worker` does); it still queues them. Default: it runs them. */
	RUN_JOBS: z.enum(['true', 'false']).optional(),
	/** Web processes to run; default: the cores with a server database, 1 on the embedded one. */
	WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
	/** How long a stopping process keeps taking requests (answering /readyz with 503) before it stops listening. */
	SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
	/** How long a stopping process lets requests in flight finish. */
	SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
	/** An S3-compatible bucket for stored files; without it they stay under DATA_DIR/uploads (decision 0086). */
	S3_BUCKET: z.string().min(3).max(63).optional(),
	/** The S3 server, e.g. http://minio:9000; empty for AWS. */
	S3_ENDPOINT: z.string().url().optional(),
	S3_REGION: z.string().min(1).default('us-east-1'),
	/** Both set, or neither (the SDK's own chain: AWS_* variables, an instance role). */
	S3_ACCESS_KEY_ID: z.string().min(1).optional(),
	S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
	/** `true` for MinIO-style servers that address buckets by path, not by host name. */
	S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
	/** `false`: a web process (and the worker, `npm run jobs`) does not migrate at start; the release step `npm run db:migrate` does (decision 0143). Ignored on the embedded database. */
	MIGRATE_ON_START: z.enum(['true', 'false']).optional(),
	/** How long a migration waits for a table's lock before it fails (and can be run again), instead of queueing every request behind it. */
	MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
	// Observability (docs/operations.md): off unless set.
	/** A port of its own for Prometheus's scrape (/metrics); never the public port. */
	METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
	/** An OTLP/HTTP collector, e.g. http://otel-collector:4318: traces go to its /v1/traces. */
	OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
	OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
	OTEL_SERVICE_NAME: z.string().min(1).default('autohub'),
	// eID (Smart-ID, Mobile-ID, ID-card) through OpenID Connect: RIA's TARA or a broker (docs/eid.md, decision 0150). Off unless OIDC_ISSUER is set.
	/** The provider's issuer, e.g. https://tara-test.ria.ee; its discovery document and keys are read from it. */
	OIDC_ISSUER: z.string().url().optional(),
	OIDC_CLIENT_ID: z.string().min(1).optional(),
	OIDC_CLIENT_SECRET: z.string().min(1).optional(),
	/** Space-separated; `openid` gives TARA's name and personal code; a broker may want `openid profile`. */
	OIDC_SCOPES: z
		.string()
		.regex(/^[\w:./-]+( [\w:./-]+)*$/, 'scopes separated by single spaces')
		.refine((value) => value.split(' ').includes('openid'), 'must include openid')
		.default('openid'),
	/** Keys the hash of a person's country and personal code; never changed once people have linked their eID (every link would be lost). */
	EID_HASH_SECRET: z.string().min(32).optional(),
})
	.refine((env) => !(env.SESSION_SECRET && env.SESSION_SECRETS), {
		message: 'set SESSION_SECRETS or SESSION_SECRET, not both (SESSION_SECRETS=new,old rotates)',
		path: ['SESSION_SECRETS'],
	})
	.refine((env) => !(env.EMAIL_TO_DISK === 'true' && env.SMTP_URL), {
		message: 'EMAIL_TO_DISK=true keeps e-mails on disk, SMTP_URL sends them: set one of the two',
		path: ['EMAIL_TO_DISK'],
	})
	.refine((env) => Boolean(env.S3_ACCESS_KEY_ID) === Boolean(env.S3_SECRET_ACCESS_KEY), {
	message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
	path: ['S3_SECRET_ACCESS_KEY'],
})
	.superRefine((env, context) => {
		// eID needs all four, or none of them: half a configuration would show a button that cannot work.
		const eid = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'EID_HASH_SECRET'] as const
		const set = eid.filter((name) => env[name])
		if (set.length === 0 || set.length === eid.length) return
		for (const name of eid.filter((each) => !env[each])) {
			context.addIssue({ code: 'custom', path: [name], message: `eID needs ${eid.join(', ')} together: set ${name} too, or unset the others (docs/eid.md)` })
		}
	})

export type Env = Omit<z.infer<typeof EnvSchema>, 'APP_URL'> & {
	/** APP_URL, or this machine on PORT: a changed PORT moves the links with it (decision 0130). */
	APP_URL: string
	dataDir: string
	/** WEB_CONCURRENCY, or its default; always 1 on the embedded database (one process opens it). */
	webConcurrency: number
	usesEmbeddedDatabase: boolean
	seedDemoData: boolean
	isProduction: boolean
	runJobs: boolean
	/** MIGRATE_ON_START, always true on the embedded database (nothing else migrates it). */
	migrateOnStart: boolean
	/** Both Stripe keys set: paid packages go through Stripe Checkout. */
	stripeCheckout: boolean
	/** OIDC_ISSUER and its companions set: the eID buttons show and /eid/* works (decision 0150). */
	eid: { issuer: string; clientId: string; clientSecret: string; scopes: string; hashSecret: string } | null
}

let cached: Env | undefined

/** The validated configuration, read from the environment once per process. */
export function getEnv(): Env {
	if (cached) return cached
	const parsed = EnvSchema.safeParse(emptyToUndefined(process.env))
	if (!parsed.success) {
		const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
		throw new Error(`Invalid environment configuration:\n  ${problems.join('\n  ')}`)
	}
	const env = parsed.data
	const dataDir = env.DATA_DIR.startsWith('memory://')
		? env.DATA_DIR
		: path.resolve(projectRoot, env.DATA_DIR)
	const usesEmbeddedDatabase = !env.DATABASE_URL
	cached = {
		...env,
		APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
		dataDir,
		webConcurrency: usesEmbeddedDatabase ? 1 : (env.WEB_CONCURRENCY ?? os.availableParallelism()),
		usesEmbeddedDatabase,
		seedDemoData: env.SEED_DEMO_DATA ? env.SEED_DEMO_DATA === 'true' : usesEmbeddedDatabase,
		isProduction: env.NODE_ENV === 'production',
		runJobs: env.RUN_JOBS !== 'false',
		migrateOnStart: usesEmbeddedDatabase || env.MIGRATE_ON_START !== 'false',
		stripeCheckout: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET),
		eid:
			env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET && env.EID_HASH_SECRET
				? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET, scopes: env.OIDC_SCOPES, hashSecret: env.EID_HASH_SECRET }
				: null,
	}
	return cached
}

let secrets: string[] | undefined

/**
 * The secrets that sign cookies (the first signs, all verify). SESSION_SECRET when set. Otherwise
 * a production portal on the embedded database generates a random secret once and keeps it in
 * DATA_DIR (one machine, one process: nothing to share), while one on a PostgreSQL server refuses
 * to start: its processes must share a secret the operator sets. Development and tests use a
 * fixed development secret.
 */
export function getSessionSecrets(): string[] {
	if (secrets) return secrets
	const env = getEnv()
	if (env.SESSION_SECRETS) return (secrets = env.SESSION_SECRETS)
	if (env.SESSION_SECRET) return (secrets = [env.SESSION_SECRET])
	if (!env.isProduction || env.dataDir.startsWith('memory://')) return (secrets = [DEV_SESSION_SECRET])
	if (env.usesEmbeddedDatabase) return (secrets = [readOrCreateSecret(path.join(env.dataDir, 'session-secret'))])
	throw new Error(
		'SESSION_SECRET is not set. With DATABASE_URL every process must sign cookies with the same secret: ' +
			'set SESSION_SECRET to at least 32 random characters (for example `openssl rand -hex 32`), or SESSION_SECRETS to several, comma-separated.',
	)
}

/**
 * What a portal that serves (the web processes, the worker, `npm run jobs`) needs beyond a valid
 * environment: in production on a server database, where a missing setting would not fail but
 * quietly do the wrong thing (decision 0142). Throws one line naming each setting; the release
 * steps (db:migrate, db:seed, admin:create) do not call it.
 */
export function checkServingConfiguration() {
	const env = getEnv()
	getSessionSecrets()
	const problems: string[] = []
	if (env.isProduction && (env.STRIPE_SECRET_KEY ? !env.STRIPE_WEBHOOK_SECRET : env.STRIPE_WEBHOOK_SECRET)) {
		const missing = env.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'
		problems.push(`${missing} is not set while its pair is: set both for Stripe Checkout, or neither for the test payment page`)
	}
	if (env.isProduction && !env.usesEmbeddedDatabase) {
		if (!process.env.APP_URL) problems.push('APP_URL is not set: links in e-mails would point at localhost; set it to the address people reach the portal at')
		if (!env.SMTP_URL && env.EMAIL_TO_DISK !== 'true') {
			problems.push('SMTP_URL is not set: e-mails would only be kept on disk; set SMTP_URL, or EMAIL_TO_DISK=true to keep them on disk on purpose')
		}
	}
	if (problems.length > 0) throw new Error(problems.join('; '))
}

/** Express reads `trust proxy` as this; anything else it would reject at start, or misread. */
function isTrustProxyValue(value: string) {
	if (/^(true|false|\d+)$/.test(value)) return true
	return value.split(',').every((item) => {
		const entry = item.trim()
		if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true
		const [address = '', range, ...rest] = entry.split('/')
		const family = net.isIP(address)
		if (!family || rest.length > 0) return false
		if (range === undefined) return true
		if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128)
		return family === 4 && net.isIPv4(range)
	})
}

function readOrCreateSecret(file: string): string {
	const read = () => {
		try {
			return fs.readFileSync(file, 'utf8').trim()
		} catch {
			return null
		}
	}
	const existing = read()
	if (existing === null) {
		fs.mkdirSync(path.dirname(file), { recursive: true })
		// Written whole to a file of its own, then linked into place: a crash leaves no half secret,
		// and of two processes starting at once the first link wins and both read the same.
		const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
		fs.writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 })
		try {
			fs.linkSync(temporary, file)
		} catch {
			// Another process made it first.
		} finally {
			fs.rmSync(temporary, { force: true })
		}
	}
	const secret = read()
	if (!secret || secret.length < 32) {
		throw new Error(`${file} does not hold a session secret of at least 32 characters: delete it to have a new one made, or set SESSION_SECRET.`)
	}
	return secret
}

/** Whether the fixed development secret signs cookies (the server warns about it at start). */
export function usesDevelopmentSessionSecret() {
	return getSessionSecrets()[0] === DEV_SESSION_SECRET
}

/** For tests that switch databases between files. */
export function resetEnvCache() {
	cached = undefined
	secrets = undefined
}

function emptyToUndefined(source: NodeJS.ProcessEnv) {
	return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''))
}
