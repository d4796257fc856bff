import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { checkServingConfiguration, getEnv, getSessionSecrets, resetEnvCache } from '~/utils/env.server'

/**
 * The settings a portal refuses to start without, or with wrong (decision 0142): each refusal
 * names its setting, and the embedded and development modes still start without them.
 */
const saved = { ...process.env }
const OLD = 'old-session-secret-0123456789abcdef0123456789'
const NEW = 'new-session-secret-0123456789abcdef0123456789'
const productionOnServer = {
	NODE_ENV: 'production',
	DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/autohub',
	SESSION_SECRET: OLD,
	APP_URL: 'https://autohub.example',
	SMTP_URL: 'smtp://mail.example:587',
}

function setEnv(values: Record<string, string | undefined>) {
	for (const name of Object.keys(process.env)) delete process.env[name]
	for (const [name, value] of Object.entries({ PATH: saved.PATH, DATA_DIR: 'memory://env-test', ...values })) {
		if (value !== undefined) process.env[name] = value
	}
	resetEnvCache()
}

/** The message the server would refuse with, or null when it starts. */
function refusal(values: Record<string, string | undefined>): string | null {
	setEnv(values)
	try {
		checkServingConfiguration()
		return null
	} catch (error) {
		return (error as Error).message
	}
}

beforeEach(() => setEnv({}))
afterEach(() => {
	setEnv(saved)
	vi.resetModules()
})

describe('production on a server database', () => {
	test('starts with everything it needs', () => {
		expect(refusal(productionOnServer)).toBeNull()
	})

	test('refuses without APP_URL, naming it', () => {
		expect(refusal({ ...productionOnServer, APP_URL: undefined })).toMatch(/^APP_URL is not set/)
	})

	test('refuses without SMTP_URL, naming it and the way to keep e-mails on disk on purpose', () => {
		const message = refusal({ ...productionOnServer, SMTP_URL: undefined })
		expect(message).toMatch(/^SMTP_URL is not set/)
		expect(message).toContain('EMAIL_TO_DISK=true')
		expect(refusal({ ...productionOnServer, SMTP_URL: undefined, EMAIL_TO_DISK: 'true' })).toBeNull()
		expect(refusal({ ...productionOnServer, SMTP_URL: undefined, EMAIL_TO_DISK: 'false' })).toMatch(/^SMTP_URL is not set/)
	})

	test('refuses EMAIL_TO_DISK=true beside SMTP_URL: one of the two', () => {
		expect(refusal({ ...productionOnServer, EMAIL_TO_DISK: 'true' })).toContain('EMAIL_TO_DISK')
	})

	test('refuses one Stripe key of two, naming the missing one', () => {
		expect(refusal({ ...productionOnServer, STRIPE_SECRET_KEY: 'sk_live_x' })).toMatch(/^STRIPE_WEBHOOK_SECRET is not set/)
		expect(refusal({ ...productionOnServer, STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toMatch(/^STRIPE_SECRET_KEY is not set/)
		expect(refusal({ ...productionOnServer, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toBeNull()
		expect(getEnv().stripeCheckout).toBe(true)
	})

	test('names every missing setting at once', () => {
		const message = refusal({ ...productionOnServer, APP_URL: undefined, SMTP_URL: undefined })
		expect(message).toContain('APP_URL')
		expect(message).toContain('SMTP_URL')
		expect(message).not.toContain('\n')
	})

	test('refuses without a session secret', () => {
		expect(refusal({ ...productionOnServer, SESSION_SECRET: undefined, DATA_DIR: '/tmp/env-test' })).toContain('SESSION_SECRET is not set')
	})
})

describe('the modes that need none of it', () => {
	test('production on the embedded database starts without APP_URL and SMTP_URL', () => {
		expect(refusal({ NODE_ENV: 'production' })).toBeNull()
	})

	test('development and tests on a server database start without them', () => {
		expect(refusal({ NODE_ENV: 'development', DATABASE_URL: productionOnServer.DATABASE_URL })).toBeNull()
		expect(refusal({ NODE_ENV: 'test', DATABASE_URL: productionOnServer.DATABASE_URL })).toBeNull()
	})

	test('but one Stripe key of two is refused in any production', () => {
		expect(refusal({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_x' })).toMatch(/^STRIPE_WEBHOOK_SECRET/)
		expect(refusal({ NODE_ENV: 'development', STRIPE_SECRET_KEY: 'sk_test_x' })).toBeNull()
	})
})

describe('HOST and TRUST_PROXY', () => {
	test('HOST defaults to every address, and takes an address or a name', () => {
		setEnv({})
		expect(getEnv().HOST).toBe('0.0.0.0')
		expect(refusal({ HOST: '127.0.0.1' })).toBeNull()
		expect(refusal({ HOST: 'localhost' })).toBeNull()
		expect(refusal({ HOST: '::1' })).toBeNull()
		expect(refusal({ HOST: 'not a host' })).toContain('HOST')
	})

	test.each(['true', 'false', '1', 'loopback', 'loopback, 10.0.0.0/8', '192.168.1.1', '10.0.0.0/255.0.0.0', 'fd00::/8, uniquelocal'])(
		'TRUST_PROXY=%s is what Express reads',
		(value) => {
			expect(refusal({ TRUST_PROXY: value })).toBeNull()
			expect(getEnv().TRUST_PROXY).toBe(value)
		},
	)

	test.each(['yes', 'loopbak', '10.0.0.0/33', '300.1.1.1', 'loopback,,'])('TRUST_PROXY=%s is refused, naming it', (value) => {
		expect(refusal({ TRUST_PROXY: value })).toMatch(/TRUST_PROXY: /)
	})
})

describe('SESSION_SECRETS', () => {
	test('the first signs, all verify; SESSION_SECRET is a list of one', () => {
		setEnv({ SESSION_SECRETS: ` ${NEW}, ${OLD} ` })
		expect(getSessionSecrets()).toEqual([NEW, OLD])
		setEnv({ SESSION_SECRET: OLD })
		expect(getSessionSecrets()).toEqual([OLD])
	})

	test('both set is refused as ambiguous; a short one is refused', () => {
		expect(refusal({ SESSION_SECRETS: NEW, SESSION_SECRET: OLD })).toContain('SESSION_SECRETS or SESSION_SECRET, not both')
		expect(refusal({ SESSION_SECRETS: `${NEW},short` })).toContain('SESSION_SECRETS')
		expect(refusal({ SESSION_SECRETS: ' , ' })).toContain('SESSION_SECRETS')
	})

	test('satisfies production on a server database', () => {
		expect(refusal({ ...productionOnServer, SESSION_SECRET: undefined, SESSION_SECRETS: `${NEW},${OLD}` })).toBeNull()
	})
})

describe('MIGRATE_ON_START', () => {
	test('false only on a server database: the embedded one always migrates at start', () => {
		setEnv({ MIGRATE_ON_START: 'false', DATABASE_URL: productionOnServer.DATABASE_URL })
		expect(getEnv().migrateOnStart).toBe(false)
		setEnv({ MIGRATE_ON_START: 'false' })
		expect(getEnv().migrateOnStart).toBe(true)
		setEnv({ DATABASE_URL: productionOnServer.DATABASE_URL })
		expect(getEnv().migrateOnStart).toBe(true)
	})
})

describe('rotating the session secret (SESSION_SECRETS=new,old)', () => {
	/** The cookie helpers as a freshly started process with this configuration has them. */
	async function processWith(values: Record<string, string | undefined>) {
		setEnv({ NODE_ENV: 'production', ...values })
		vi.resetModules()
		return {
			session: await import('~/utils/session.server'),
			csrf: await import('~/utils/csrf.server'),
			honeypot: await import('~/utils/honeypot.server'),
		}
	}

	test('a session, a form token and a form signed with the old secret still work; new ones are signed with the new', async () => {
		const before = await processWith({ SESSION_SECRET: OLD })
		const session = await before.session.getSessionStorage().getSession()
		session.set('token', 'signed-in')
		const sessionCookie = (await before.session.getSessionStorage().commitSession(session)).split(';')[0]!
		const [csrfToken, csrfCookie] = await before.csrf.commitCsrfToken(new Request('http://localhost/'))
		const honeypot = before.honeypot.honeypotInputProps()

		const after = await processWith({ SESSION_SECRETS: `${NEW},${OLD}` })
		const read = await after.session.getSessionStorage().getSession(sessionCookie)
		expect(read.get('token')).toBe('signed-in')
		const form = new FormData()
		form.set('csrf', csrfToken)
		form.set(honeypot.nameFieldName, '')
		form.set(honeypot.validFromFieldName!, honeypot.encryptedValidFrom)
		const post = new Request('http://localhost/contact-us', { method: 'POST', headers: { Cookie: csrfCookie!.split(';')[0]! } })
		await expect(after.csrf.validateCsrf(post, form)).resolves.toBeUndefined()
		await new Promise((resolve) => setTimeout(resolve, 5))
		expect(after.honeypot.isSpam(form)).toBe(false)

		// Signed with the new secret now: a process that knows only the new one reads it.
		const fresh = await after.session.getSessionStorage().commitSession(read)
		const onlyNew = await processWith({ SESSION_SECRET: NEW })
		expect((await onlyNew.session.getSessionStorage().getSession(fresh.split(';')[0]!)).get('token')).toBe('signed-in')
		// And once the old secret is dropped, what it signed no longer counts.
		expect((await onlyNew.session.getSessionStorage().getSession(sessionCookie)).get('token')).toBeUndefined()
		await expect(onlyNew.csrf.validateCsrf(post, form)).rejects.toBeInstanceOf(Response)
	})

	test('a tampered token is refused whatever the secrets', async () => {
		const rotated = await processWith({ SESSION_SECRETS: `${NEW},${OLD}` })
		const [token, cookie] = await rotated.csrf.commitCsrfToken(new Request('http://localhost/'))
		const form = new FormData()
		form.set('csrf', `${token}x`)
		const post = new Request('http://localhost/', { method: 'POST', headers: { Cookie: cookie!.split(';')[0]! } })
		await expect(rotated.csrf.validateCsrf(post, form)).rejects.toBeInstanceOf(Response)
		const trap = rotated.honeypot.honeypotInputProps()
		const spam = new FormData()
		spam.set(trap.nameFieldName, 'a bot')
		spam.set(trap.validFromFieldName!, trap.encryptedValidFrom)
		expect(rotated.honeypot.isSpam(spam)).toBe(true)
	})
})
