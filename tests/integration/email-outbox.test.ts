import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, uploads } from '~/db/schema'
import { db } from '~/db/db.server'
import { enqueueEmail, processOutbox, resetEmailTransport, retryOutboxNow } from '~/email/outbox.server'
import { resetEnvCache } from '~/utils/env.server'
import { storageRoot } from '~/uploads/file-store.server'
import { useSmtpSink } from '#tests/support/use-smtp-sink'

const sink = useSmtpSink()

const statusOf = async (id: string) => (await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!

describe('the e-mail outbox', () => {
	test('delivers a queued e-mail over SMTP once', async () => {
		const id = await enqueueEmail(db, { to: 'mari@example.com', subject: 'Tere, Mari', text: 'Sinu päring sai pakkumise: 185 €' })
		expect((await statusOf(id)).status).toBe('pending')

		await processOutbox()
		const mails = sink.received.filter((m) => m.subject === 'Tere, Mari')
		expect(mails).toHaveLength(1)
		expect(mails[0]!.to).toEqual(['mari@example.com'])
		expect(mails[0]!.text).toContain('185 €')
		expect(mails[0]!.messageId).toContain(id)
		expect((await statusOf(id)).status).toBe('sent')

		// Nothing is sent twice.
		await processOutbox()
		expect(sink.received.filter((m) => m.subject === 'Tere, Mari')).toHaveLength(1)
	})

	test('an attachment whose file is still being moved into the store is waited for, not counted as a failure', async () => {
		const key = `test/${randomUUID()}.pdf`
		const [upload] = await db
			.insert(uploads)
			.values({ purpose: 'invoice', mimeType: 'application/pdf', byteSize: 20, sha256: 'x', storageKey: key })
			.returning()
		const id = await enqueueEmail(db, { to: 'arved@example.com', subject: 'Invoice soon', text: 'attached', attachments: [{ uploadId: upload!.id, filename: 'arve.pdf' }] })
		await processOutbox()
		const waiting = await statusOf(id)
		expect([waiting.status, waiting.attempts, waiting.lastError]).toEqual(['pending', 0, null])
		expect(waiting.nextAttemptAt.getTime()).toBeLessThan(Date.now() + 5_000)
		expect(sink.received.filter((m) => m.subject === 'Invoice soon')).toHaveLength(0)

		// The move lands: the next round sends it, with the file.
		const file = path.join(storageRoot(), key)
		await fs.mkdir(path.dirname(file), { recursive: true })
		await fs.writeFile(file, '%PDF-1.4\n%%EOF\n')
		await retryOutboxNow()
		await processOutbox()
		expect((await statusOf(id)).status).toBe('sent')
		expect(sink.received.filter((m) => m.subject === 'Invoice soon')).toHaveLength(1)
	})

	test('keeps e-mails while the SMTP server is down and delivers each exactly once when it is back', async () => {
		const port = sink.port
		await sink.stop()
		const ids = await Promise.all(
			[1, 2, 3].map((n) => enqueueEmail(db, { to: `user${n}@example.com`, subject: `Outage ${n}`, text: `message ${n}` })),
		)
		const down = await processOutbox()
		expect(down.retried).toBe(3)
		for (const id of ids) {
			const row = await statusOf(id)
			expect(row.status).toBe('pending')
			expect(row.attempts).toBe(1)
			expect(row.lastError).toBeTruthy()
			// It waits (backoff) instead of hammering the server.
			expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000)
		}
		expect(await processOutbox()).toEqual({ sent: 0, retried: 0, failed: 0 })

		await sink.start(port)
		resetEmailTransport()
		await retryOutboxNow()
		const up = await processOutbox()
		expect(up.sent).toBe(3)
		await processOutbox()
		for (const n of [1, 2, 3]) expect(sink.received.filter((m) => m.subject === `Outage ${n}`)).toHaveLength(1)
		for (const id of ids) expect((await statusOf(id)).status).toBe('sent')
	})

	test('without SMTP_URL keeps the e-mail in the outbox as logged', async () => {
		delete process.env.SMTP_URL
		resetEnvCache()
		resetEmailTransport()
		const id = await enqueueEmail(db, { to: 'nobody@example.com', subject: 'Logged only', text: 'see the log' })
		await processOutbox()
		expect((await statusOf(id)).status).toBe('logged')
		expect(sink.received.find((m) => m.subject === 'Logged only')).toBeUndefined()
		process.env.SMTP_URL = sink.url
		resetEnvCache()
		resetEmailTransport()
	})

	test('a rolled-back transaction sends nothing', async () => {
		await db
			.transaction(async (tx) => {
				await enqueueEmail(tx, { to: 'rollback@example.com', subject: 'Never', text: 'never' })
				throw new Error('the event failed')
			})
			.catch(() => {})
		expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'rollback@example.com'))).toEqual([])
	})
})
