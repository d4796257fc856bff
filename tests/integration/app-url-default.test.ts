import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { emailOutbox } from '~/db/schema'
import { db } from '~/db/db.server'
import { requestPasswordReset } from '~/domain/accounts/accounts.server'
import { loader as workshopList } from '~/routes/admin.api.workshop-list'
import { getEnv, resetEnvCache } from '~/utils/env.server'
import { publicOrigin } from '~/utils/seo.server'
import { demoData } from '#tests/support/demo-data'

/**
 * `PORT=4321 npm start` with no APP_URL: the portal is at http://localhost:4321, and so are the
 * links it e-mails and the images it hands the widgets. The default was http://localhost:3000
 * whatever the port, so a changed PORT broke both (issue 32, item 10; decision 0130).
 */
const saved = { PORT: process.env.PORT, APP_URL: process.env.APP_URL }

function setEnv(values: Record<string, string | undefined>) {
	for (const [name, value] of Object.entries(values)) {
		if (value === undefined) delete process.env[name]
		else process.env[name] = value
	}
	resetEnvCache()
}

beforeAll(async () => {
	await demoData()
	setEnv({ PORT: '4321', APP_URL: undefined })
})

afterAll(() => setEnv(saved))

describe('with PORT set and no APP_URL', () => {
	test('the portal’s address is http://localhost:$PORT', () => {
		expect(getEnv().APP_URL).toBe('http://localhost:4321')
		expect(publicOrigin()).toBe('http://localhost:4321')
	})

	test('the link in an e-mail opens the portal on that port', async () => {
		await requestPasswordReset({ email: 'customer@example.com', ip: '10.32.10.1', language: 'en' })
		const [mail] = await db
			.select()
			.from(emailOutbox)
			.where(sql`${emailOutbox.to} = 'customer@example.com' and ${emailOutbox.text} like '%/reset-password/%'`)
		expect(mail!.text).toMatch(/http:\/\/localhost:4321\/reset-password\/[A-Za-z0-9_-]+\?lng=en/)
		expect(mail!.html).toContain('http://localhost:4321/reset-password/')
		expect(`${mail!.text}${mail!.html}`).not.toContain('localhost:3000')
	})

	test('the widgets’ images and links point at that port', async () => {
		const request = new Request('http://localhost:4321/admin/api/workshop-list?lng=en')
		const response = await workshopList({ request, params: {}, context: { clientIp: '192.0.2.32' } } as never)
		const body = (await response.json()) as { data: { items: Array<{ logo: string | null; url: string }> } }
		const logos = body.data.items.map((item) => item.logo).filter((logo) => logo !== null)
		expect(logos.length).toBeGreaterThan(0)
		for (const logo of logos) expect(logo).toMatch(/^http:\/\/localhost:4321\/uploads\/[A-Za-z0-9_-]+/)
		for (const item of body.data.items) expect(item.url).toMatch(/^http:\/\/localhost:4321\/workshop-details\//)
	})

	test('APP_URL, when set, is the address whatever the port', () => {
		setEnv({ APP_URL: 'https://autohub.example' })
		try {
			expect(getEnv().APP_URL).toBe('https://autohub.example')
			expect(publicOrigin()).toBe('https://autohub.example')
		} finally {
			setEnv({ APP_URL: undefined })
		}
	})
})
