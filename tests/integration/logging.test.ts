import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { users } from '~/db/schema'
import { db } from '~/db/db.server'
import { createLogger, describeError } from '~/utils/logger.server'
import { createCustomer } from '#tests/support/accounts'
import { failure } from '#tests/support/failure'

/** A logger writing into an array: what would have reached the log. */
function capture() {
	const lines: string[] = []
	const stream = new Writable({
		write(chunk, _encoding, done) {
			lines.push(String(chunk))
			done()
		},
	})
	return { log: createLogger(stream), lines }
}

describe('logs hold no personal data', () => {
	test('a failed query is logged without its text or parameters', async () => {
		const secret = 'kati.karu+secret@example.com'
		const error = await failure(() => db.execute(sql`select ${secret}::int as n`))
		const described = JSON.stringify(describeError(error))
		expect(described).toContain('22P02')
		expect(described).not.toContain('kati.karu')
		expect(described).not.toMatch(/select|params/i)
	})

	test('a unique violation names its constraint, never the duplicate value', async () => {
		const user = await createCustomer()
		const error = await failure(() =>
			db.insert(users).values({ email: user.email, passwordHash: 'scrypt$x', role: 'customer', firstName: 'Mari', lastName: 'Maasikas' }),
		)
		const described = JSON.stringify(describeError(error))
		expect(described).toContain('users_email_key')
		expect(described).not.toContain(user.email)
		expect(described).not.toContain('Maasikas')
		expect(described).not.toContain('scrypt$x')
	})

	test('fields that may hold personal data are censored wherever they appear', () => {
		const { log, lines } = capture()
		log.error({ email: 'a@b.example', to: 'c@d.example', mobile: '+372 5555 0000', user: { firstName: 'Mari', password: 'hunter22' }, path: '/login' }, 'test')
		log.error({ err: new Error('send to someone@example.com failed: "value" was bad') }, 'oops')
		const text = lines.join('\n')
		for (const secret of ['a@b.example', 'c@d.example', '5555', 'Mari', 'hunter22', 'someone@example.com']) expect(text).not.toContain(secret)
		expect(text).toContain('/login')
		expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'error', msg: 'oops', err: { type: 'Error' } })
	})
})
