import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { auditLog, cities, sessions, users, workshops } from '~/db/schema'
import { audited } from '~/domain/admin/audit.server'
import { changeEmail, searchUsers, setBlocked, updateCompanyFields } from '~/domain/admin/users.server'
import { authenticate } from '~/domain/accounts/accounts.server'
import { DomainError } from '~/utils/errors'
import { forgetWorkshopCounts, getWorkshopProfile, searchWorkshops } from '~/domain/directory/workshops.server'
import { createSessionToken, findUserByToken, getOptionalUser } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import { adminRequest, createAdmin, createCustomer, PASSWORD, signedInRequest, uniqueEmail } from '#tests/support/accounts'
import { referenceData, workshopOffering } from '#tests/support/flow'
import { action as listsAction } from '~/routes/_app.admin.lists'
import { commitCsrfToken } from '~/utils/csrf.server'
import { encodeId } from '~/utils/public-id'
import { ROUTER_ARGS } from '#tests/support/router-args'
import { demoData } from '#tests/support/demo-data'

// The demo data first, from the run's template: once a test has made an account, a later load takes a minute.
beforeAll(() => demoData())

const auditRows = async (entityId: string) => db.select().from(auditLog).where(eq(auditLog.entityId, entityId))

describe('blocking an account', () => {
	test('ends its browser sessions and API tokens at once, and the login says it is blocked', async () => {
		const actor = await createAdmin()
		const customer = await createCustomer()
		const { request } = await signedInRequest(customer.id)
		const apiToken = await createSessionToken(db, { userId: customer.id, kind: 'api', method: 'password' })
		expect(await getOptionalUser(request)).not.toBeNull()

		await setBlocked(actor.id, customer.id, true)

		expect(await db.select().from(sessions).where(eq(sessions.userId, customer.id))).toEqual([])
		expect(await getOptionalUser(new Request(request.url, { headers: request.headers }))).toBeNull()
		expect(await findUserByToken(apiToken, 'api')).toBeNull()
		const login = await authenticate({ email: customer.email, password: PASSWORD, ip: '10.0.0.1' })
		expect(login).toMatchObject({ ok: false, error: { key: 'auth:login.blocked' } })

		const [row] = await auditRows(customer.id)
		expect(row).toMatchObject({ actorId: actor.id, action: 'user.block', before: { blocked: false }, after: { blocked: true } })

		await setBlocked(actor.id, customer.id, false)
		expect(await authenticate({ email: customer.email, password: PASSWORD, ip: '10.0.0.2' })).toMatchObject({ ok: true })
		expect((await auditRows(customer.id)).map((r) => r.action).sort()).toEqual(['user.block', 'user.unblock'])
	})

	test('an administrator cannot block their own account', async () => {
		const actor = await createAdmin()
		await expect(setBlocked(actor.id, actor.id, true)).rejects.toBeInstanceOf(DomainError)
		expect(await auditRows(actor.id)).toEqual([])
	})

	test('a blocked workshop leaves the directory, its page and its counts', async () => {
		const actor = await createAdmin()
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.tyres])
		const [city] = await db.select().from(cities).limit(1)
		await db.update(workshops).set({ cityId: city!.id }).where(eq(workshops.id, workshop.workshopId))
		forgetWorkshopCounts()
		const query = { q: workshop.workshopName, sort: 'rating', page: 1 } as const
		const byService = { service: 'tyres', sort: 'rating', page: 1 } as const
		expect((await searchWorkshops(query, 'en')).items.map((w) => w.name)).toContain(workshop.workshopName)
		const countBefore = (await searchWorkshops(byService, 'en')).total
		expect(await getWorkshopProfile(workshop.workshopId, 'en')).not.toBeNull()

		await setBlocked(actor.id, workshop.userId, true)

		expect((await searchWorkshops(query, 'en')).items).toEqual([])
		expect((await searchWorkshops(byService, 'en')).total).toBe(countBefore - 1)
		expect(await getWorkshopProfile(workshop.workshopId, 'en')).toBeNull()

		await setBlocked(actor.id, workshop.userId, false)
		expect((await searchWorkshops(query, 'en')).items.map((w) => w.name)).toContain(workshop.workshopName)
	})
})

describe('e-mail and company fields', () => {
	test('an e-mail address stays unique, whatever its case, and a refused change writes no audit row', async () => {
		const actor = await createAdmin()
		const first = await createCustomer()
		const second = await createCustomer()
		await expect(changeEmail(actor.id, second.id, first.email.toUpperCase())).rejects.toMatchObject({
			key: 'auth:register.emailTaken',
		})
		expect(await auditRows(second.id)).toEqual([])
		const [unchanged] = await db.select().from(users).where(eq(users.id, second.id))
		expect(unchanged!.email).toBe(second.email)

		const fresh = uniqueEmail('moved')
		await changeEmail(actor.id, second.id, fresh)
		const [moved] = await db.select().from(users).where(eq(users.id, second.id))
		expect(moved!.email).toBe(fresh)
		expect(await auditRows(second.id)).toMatchObject([{ action: 'user.email', before: { email: second.email }, after: { email: fresh } }])
		expect(await authenticate({ email: fresh, password: PASSWORD, ip: '10.0.0.3' })).toMatchObject({ ok: true })
	})

	test('company name and ID of a workshop change with an audit row', async () => {
		const actor = await createAdmin()
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.brakes])
		await updateCompanyFields(actor.id, workshop.userId, { companyName: 'Uus Nimi OÜ', companyId: '9876543210' })
		const [row] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		expect(row).toMatchObject({ companyName: 'Uus Nimi OÜ', companyId: '9876543210' })
		expect(await auditRows(workshop.userId)).toMatchObject([
			{ action: 'workshop.company', before: { companyId: '1234567890' }, after: { companyId: '9876543210' } },
		])
		// A customer has no workshop: the same answer as a missing one.
		const customer = await createCustomer()
		await expect(updateCompanyFields(actor.id, customer.id, { companyName: 'X OÜ', companyId: '1111111111' })).rejects.toMatchObject({
			status: 404,
		})
	})
})

describe('the audit log', () => {
	test('is written in the same transaction as the change: when the row cannot be written, the change is not saved', async () => {
		const actor = await createAdmin()
		const customer = await createCustomer()
		await expect(
			// An action of null breaks the audit row's not-null constraint, after the change was made.
			audited(actor.id, { action: null as unknown as string, entityType: 'user', entityId: customer.id }, async (tx) => {
				await tx.update(users).set({ firstName: 'Changed' }).where(eq(users.id, customer.id))
				return { before: { firstName: 'Kati' }, after: { firstName: 'Changed' }, result: undefined }
			}),
		).rejects.toThrow()
		expect(await auditRows(customer.id)).toEqual([])
		const [row] = await db.select().from(users).where(eq(users.id, customer.id))
		expect(row!.firstName).toBe('Kati')
	})

	test('a failure after the audit row is written rolls the row back too', async () => {
		const actor = await createAdmin()
		const customer = await createCustomer()
		await expect(
			db.transaction(async (tx) => {
				const { writeAudit } = await import('~/domain/admin/audit.server')
				await writeAudit(tx, actor.id, { action: 'user.test', entityType: 'user', entityId: customer.id, before: {}, after: {} })
				throw new Error('boom')
			}),
		).rejects.toThrow('boom')
		expect(await auditRows(customer.id)).toEqual([])
	})
})

describe('user search', () => {
	test('finds users by name, e-mail and role, paged', async () => {
		const customer = await createCustomer({ email: uniqueEmail('searchable') })
		const byEmail = await searchUsers({ q: customer.email.slice(0, 18), page: 1 })
		expect(byEmail.items.map((u) => u.id)).toContain(customer.id)
		const byRole = await searchUsers({ q: customer.email, role: 'workshop', page: 1 })
		expect(byRole.items).toEqual([])
		const byName = await searchUsers({ q: 'kati karu', role: 'customer', page: 1 })
		expect(byName.items.map((u) => u.id)).toContain(customer.id)
		expect(byName.totalPages).toBeGreaterThanOrEqual(1)
	})
})

describe('site content, ads, packages and lists', () => {
	test('a content page, the site settings and an ad show on the public site at once', async () => {
		const actor = await createAdmin()
		await referenceData()
		const { getContentPage } = await import('~/domain/site/content.server')
		const { saveContentPage, saveSiteSettings, getSiteSettingsForEdit } = await import('~/domain/admin/content.server')
		const { getSiteData } = await import('~/domain/site/site.server')
		const { loadAdSlots } = await import('~/domain/site/ads.server')
		const { saveAd } = await import('~/domain/admin/catalog.server')

		await saveContentPage(actor.id, 'about-us', 'et', { title: 'Meist uus', bodyHtml: '<p>Uus tekst</p><script>alert(1)</script>' })
		const page = await getContentPage('about-us', 'et')
		expect(page).toMatchObject({ title: 'Meist uus', html: '<p>Uus tekst</p>' })
		expect(await auditRows('about-us/et')).toMatchObject([{ action: 'content.page', after: { title: 'Meist uus' } }])

		await getSiteData()
		const current = await getSiteSettingsForEdit()
		await saveSiteSettings(actor.id, { ...current, appname: 'Autohub Test', vatRate: 2200 }, {})
		expect((await getSiteData()).appname).toBe('Autohub Test')

		await loadAdSlots('en')
		await saveAd(actor.id, null, { adsType: 'html', placement: 'Footer', language: 'en', adsLink: '', content: '<p>Admin ad</p>', sortOrder: 9, active: true }, undefined)
		expect((await loadAdSlots('en')).footer.map((ad) => ad.html)).toContain('<p>Admin ad</p>')
		// In its language only (issue 32).
		expect((await loadAdSlots('et')).footer.map((ad) => ad.html)).not.toContain('<p>Admin ad</p>')
		await expect(
			saveAd(actor.id, null, { adsType: 'image', placement: 'Header', language: 'et', adsLink: '', content: '', sortOrder: 0, active: true }, undefined),
		).rejects.toMatchObject({ key: 'admin:ads.imageRequired' })
	})

	test('packages and reference lists change, and a list code stays unique', async () => {
		const actor = await createAdmin()
		await referenceData()
		const { listPackages, updatePackage, saveReferenceItem, listReferenceItems } = await import('~/domain/admin/catalog.server')
		const all = await listPackages()
		const paid = all.find((p) => p.code !== 'free')!
		await updatePackage(actor.id, paid.id, { nameEt: 'Alus', nameEn: 'Basic', nameRu: 'Базовый', price: 1990, offersPerMonth: null, active: true })
		expect((await listPackages()).find((p) => p.id === paid.id)).toMatchObject({ priceCents: 1990, offersPerMonth: null, nameEn: 'Basic' })
		// The free package is where workshops fall back to: it cannot be priced or withdrawn.
		const free = all.find((p) => p.code === 'free')!
		const freeInput = { nameEt: free.nameEt, nameEn: free.nameEn, nameRu: free.nameRu, price: 0, offersPerMonth: 5, active: true }
		await expect(updatePackage(actor.id, free.id, { ...freeInput, price: 500 })).rejects.toMatchObject({ key: 'admin:packages.freeStaysFree' })
		await expect(updatePackage(actor.id, free.id, { ...freeInput, active: false })).rejects.toMatchObject({ key: 'admin:packages.freeStaysFree' })
		expect((await listPackages()).find((p) => p.id === free.id)).toMatchObject({ priceCents: 0, active: true })

		const item = { code: 'admin-test-city', nameEt: 'Testilinn', nameEn: 'Test City', nameRu: 'Тестоград', sortOrder: 0, active: true, county: 'tartu' as const }
		// A new city names its county (issue 35).
		await expect(saveReferenceItem(actor.id, 'cities', null, { ...item, county: undefined })).rejects.toMatchObject({ key: 'admin:validation.county', field: 'county' })
		await saveReferenceItem(actor.id, 'cities', null, item)
		expect((await listReferenceItems('cities')).find((c) => c.code === 'admin-test-city')).toMatchObject({ county: 'tartu' })
		await expect(saveReferenceItem(actor.id, 'cities', null, item)).rejects.toMatchObject({ key: 'admin:validation.codeTaken' })
	})

	test('a city’s county (issue 35): required for a new city, one of the fifteen, and an older city without one keeps none until chosen', async () => {
		const actor = await createAdmin()
		await referenceData()
		const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const { request } = await adminRequest(actor.id, 'http://localhost/admin/lists?list=cities')
		const cookie = `${request.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
		const send = async (fields: Record<string, string>) =>
			(await listsAction({
				request: new Request('http://localhost/admin/lists', {
					method: 'POST',
					headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
					body: new URLSearchParams({ csrf: token!, list: 'cities', sortOrder: '0', active: 'on', nameEt: 'Elva', nameEn: 'Elva', nameRu: 'Элва', ...fields }),
				}),
				params: {},
				...ROUTER_ARGS, context: {},
			})) as unknown
		const errorsOf = (answer: unknown) => (answer as { data: { result: { error: Record<string, string[]> } } }).data.result.error
		const statusOf = (answer: unknown) => (answer as { init: { status: number } | null }).init?.status

		const missing = await send({ item: 'new', code: 'elva' })
		expect(statusOf(missing)).toBe(400)
		expect(errorsOf(missing).county).toEqual(['admin:validation.county'])
		const unknown = await send({ item: 'new', code: 'elva', county: 'lapland' })
		expect(statusOf(unknown)).toBe(400)
		expect(errorsOf(unknown).county).toEqual(['admin:validation.county'])
		expect(await db.select().from(cities).where(eq(cities.code, 'elva'))).toEqual([])

		const saved = (await send({ item: 'new', code: 'elva', county: 'tartu' })) as Response
		expect(saved.status).toBe(302)
		const [elva] = await db.select().from(cities).where(eq(cities.code, 'elva'))
		expect(elva?.county).toBe('tartu')

		// A city from before counties: saved again without one, it keeps none; given one, it has it.
		await db.update(cities).set({ county: null }).where(eq(cities.id, elva!.id))
		const again = (await send({ item: encodeId(elva!.id), code: 'elva', nameEn: 'Elva town' })) as Response
		expect(again.status).toBe(302)
		expect((await db.select().from(cities).where(eq(cities.id, elva!.id)))[0]).toMatchObject({ nameEn: 'Elva town', county: null })
		await send({ item: encodeId(elva!.id), code: 'elva', county: 'tartu' })
		expect((await db.select().from(cities).where(eq(cities.id, elva!.id)))[0]?.county).toBe('tartu')
	})
})

describe('inbox and figures', () => {
	test('a contact message is marked handled once; figures count with no payments', async () => {
		const actor = await createAdmin()
		const { contactMessages } = await import('~/db/schema')
		const { listContactMessages, markMessageHandled, getFigures } = await import('~/domain/admin/stats.server')
		const [message] = await db.insert(contactMessages).values({ name: 'Mari', email: 'mari@example.com', message: 'Tere!' }).returning()
		expect((await listContactMessages({ page: 1, show: 'open' })).items.map((m) => m.id)).toContain(message!.id)
		await markMessageHandled(actor.id, message!.id)
		expect((await listContactMessages({ page: 1, show: 'open' })).items.map((m) => m.id)).not.toContain(message!.id)
		expect((await listContactMessages({ page: 1, show: 'all' })).items.map((m) => m.id)).toContain(message!.id)

		const figures = await getFigures()
		expect(figures.months).toHaveLength(12)
		expect(figures.visits).toHaveLength(30)
		expect(figures.totals.customers).toBeGreaterThan(0)
		expect(figures.totals.revenueCents).toBeGreaterThanOrEqual(0)
		expect(figures.months[0]!.users).toBeGreaterThan(0)
	})
})
