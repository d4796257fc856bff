import { afterAll, beforeAll } from 'vitest'
import { resetEmailTransport } from '~/email/outbox.server'
import { resetEnvCache } from '~/utils/env.server'
import { SmtpSink } from './smtp-sink'

/**
 * A test file's SMTP sink, which the portal's outbox delivers to: started before the file's tests
 * with `SMTP_URL` (and `env`) set, the configuration read again and the mail transport made anew;
 * stopped, and all of it undone, after them.
 */
export function useSmtpSink(env: Record<string, string> = {}) {
	const sink = new SmtpSink()
	beforeAll(async () => {
		await sink.start()
		Object.assign(process.env, { SMTP_URL: sink.url, ...env })
		resetEnvCache()
		resetEmailTransport()
	})
	afterAll(async () => {
		resetEmailTransport()
		await sink.stop()
		for (const name of ['SMTP_URL', ...Object.keys(env)]) delete process.env[name]
		resetEnvCache()
	})
	return sink
}
