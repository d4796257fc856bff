import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { cities, users, workshops } from '~/db/schema'
import { getCityCounts } from '~/domain/directory/cities.server'
import { forgetWorkshopCounts } from '~/domain/directory/workshops.server'
import { loader as homeLoader } from '~/routes/_public._index'
import { loader as citiesLoader } from '~/routes/_public.cities'
import { loader as detailsLoader } from '~/routes/_public.workshop-details.$id'
import { loader as listLoader } from '~/routes/_public.workshop-list'
import { loader as sitemapLoader } from '~/routes/sitemap[.]xml'
import { db, queryRows } from '~/db/db.server'
import { jsonLdText } from '~/utils/json-ld'
import { encodeId } from '~/utils/public-id'
import { referenceData, workshopOffering } from '#tests/support/flow'
import { demoData } from '#tests/support/demo-data'

/** Issue 16, parts 7 and 8: the directory by city, and the schema.org data search engines read. */
const ORIGIN = 'http://localhost:3000'
const args = (path: string, params: Record<string, string> = {}) =>
	({ request: new Request(`http://localhost${path}`), params, context: { clientIp: '192.0.2.10' } }) as never

beforeAll(async () => {
	await demoData()
})

describe('the cities', () => {
	test('count only the workshops the directory lists, every city named in the reader’s language', async () => {
		await forgetWorkshopCounts()
		const before = await getCityCounts('ru')
		const active = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from cities where active`)
		expect(before).toHaveLength(active[0]!.n)
		expect(before.find((city) => city.code === 'tartu')).toEqual({ code: 'tartu', name: 'Тарту', workshops: 3 })
		expect(before.find((city) => city.code === 'tallinn')!.workshops).toBe(5)
		expect(before.find((city) => city.code === 'paide')!.workshops).toBe(0)

		// Three more: one listed in Tartu, one in Tartu whose owner is blocked, one with no address yet.
		const refs = await referenceData()
		const [tartu] = await db.select().from(cities).where(eq(cities.code, 'tartu'))
		const [listed, blocked] = [await workshopOffering([refs.brakes]), await workshopOffering([refs.brakes])]
		await workshopOffering([refs.brakes])
		for (const garage of [listed, blocked]) await db.update(workshops).set({ cityId: tartu!.id }).where(eq(workshops.id, garage.workshopId))
		await db.update(users).set({ blocked: true }).where(eq(users.id, blocked.userId))

		// Counted half a minute at a time.
		expect((await getCityCounts('en')).find((city) => city.code === 'tartu')!.workshops).toBe(3)
		// What a saved profile or a blocked owner calls forgets the cities' counts too.
		forgetWorkshopCounts()
		const after = await getCityCounts('en')
		expect(after.find((city) => city.code === 'tartu')).toEqual({ code: 'tartu', name: 'Tartu', workshops: 4 })
		// The counts add up to the directory's list.
		forgetWorkshopCounts()
		const list = await listLoader(args('/workshop-list?lng=en'))
		expect(after.reduce((sum, city) => sum + city.workshops, 0)).toBe(list.result.total)
	})

	test('/cities links each city to its page of the list, with breadcrumbs', async () => {
		const data = await citiesLoader(args('/cities?lng=et'))
		expect(data.meta).toMatchObject({ title: 'Autotöökojad linnade kaupa', canonical: `${ORIGIN}/cities?lng=et` })
		expect(data.cities.find((city) => city.code === 'parnu')).toMatchObject({ name: 'Pärnu', href: '/workshop-list?city=parnu' })
		expect(data.trail.map((crumb) => [crumb.name, crumb.url])).toEqual([
			['Avaleht', `${ORIGIN}/?lng=et`],
			['Töökojad', `${ORIGIN}/workshop-list?lng=et`],
			['Linnad', `${ORIGIN}/cities?lng=et`],
		])
	})

	test('a city’s page of the list has its own title, description, heading and breadcrumbs in each language', async () => {
		const expected = {
			et: ['Autotöökojad: Tartu', /^Tartu: autotöökojad/],
			en: ['Car workshops in Tartu', /^Car workshops in Tartu: /],
			ru: ['Автосервисы — Тарту', /^Автосервисы — Тарту: /],
		} as const
		for (const [language, [title, description]] of Object.entries(expected)) {
			const data = await listLoader(args(`/workshop-list?city=tartu&lng=${language}`))
			expect(data.meta.title).toBe(title)
			expect(data.meta.description).toMatch(description)
			expect(data.heading).toBe(title)
			expect(data.trail.at(-1)).toMatchObject({ path: '/workshop-list?city=tartu', url: `${ORIGIN}/workshop-list?city=tartu&lng=${language}` })
		}
		// With other filters it is a search, not the city's page.
		const search = await listLoader(args('/workshop-list?city=tartu&service=engine&lng=en'))
		expect(search.meta.title).toBe('Workshops: Engine repair, Tartu')
		expect(search.heading).toBe('Workshops')
		expect(search.trail).toHaveLength(2)
	})

	test('the sitemap has /cities and the page of each city with listed workshops, not of an empty one', async () => {
		await forgetWorkshopCounts()
		const xml = await (await sitemapLoader()).text()
		expect(xml).toContain(`<loc>${ORIGIN}/cities</loc>`)
		expect(xml).toContain(`<loc>${ORIGIN}/workshop-list?city=tartu</loc>`)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="ru" href="${ORIGIN}/workshop-list?city=tartu&amp;lng=ru"/>`)
		expect(xml).not.toContain('city=paide')
	})
})

describe('search data', () => {
	test('a workshop’s page describes it as an AutoRepair with its rating and newest reviews', async () => {
		const [row] = await queryRows<{ id: string }>(db, sql`select id from workshops where workshop_name = 'Viljandi Autokeskus'`)
		const id = encodeId(row!.id)
		// On the second page of reviews too, the data names the newest five.
		const data = await detailsLoader(args(`/workshop-details/${id}?page=2&lng=en`, { id }))
		const repair = data.searchData as unknown as Record<string, unknown> & { review: Array<Record<string, unknown>> }
		expect(repair).toMatchObject({
			'@type': 'AutoRepair',
			name: 'Viljandi Autokeskus',
			url: `${ORIGIN}/workshop-details/${id}`,
			address: { '@type': 'PostalAddress', streetAddress: 'Riia mnt 27', postalCode: '71011', addressLocality: 'Viljandi', addressCountry: 'EE' },
			aggregateRating: { '@type': 'AggregateRating', reviewCount: 6, bestRating: 5 },
		})
		expect(repair.logo).toMatch(new RegExp(`^${ORIGIN}/uploads/`))
		expect(repair.openingHoursSpecification).toContainEqual(expect.objectContaining({ dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] }))
		expect(repair.review).toHaveLength(5)
		expect(repair.review[0]).toMatchObject({ '@type': 'Review', author: { '@type': 'Person', name: expect.stringMatching(/^\S+ \S\.$/) }, reviewRating: { '@type': 'Rating' } })
		const dates = repair.review.map((review) => review.datePublished as string)
		expect(dates).toEqual([...dates].sort().reverse())
		expect(data.trail.map((crumb) => crumb.path)).toEqual(['/', '/workshop-list', '/workshop-list?city=viljandi', `/workshop-details/${id}`])
	})

	test('a workshop without reviews claims no rating', async () => {
		const refs = await referenceData()
		const garage = await workshopOffering([refs.tyres])
		const id = encodeId(garage.workshopId)
		const data = await detailsLoader(args(`/workshop-details/${id}?lng=en`, { id }))
		// As the page writes it.
		const written = JSON.parse(jsonLdText(data.searchData)) as Record<string, unknown>
		expect(written).toMatchObject({ '@type': 'AutoRepair', name: garage.workshopName })
		expect(written).not.toHaveProperty('aggregateRating')
		expect(written).not.toHaveProperty('review')
	})

	test('the home page names the organization and the site with its search', async () => {
		const data = await homeLoader(args('/?lng=en'))
		const [organization, website] = data.searchData
		expect(organization).toMatchObject({ '@type': 'Organization', name: 'Autohub', url: `${ORIGIN}/` })
		expect(organization!.logo).toMatch(new RegExp(`^${ORIGIN}/uploads/`))
		expect(website).toMatchObject({
			'@type': 'WebSite',
			url: `${ORIGIN}/`,
			potentialAction: { '@type': 'SearchAction', target: { urlTemplate: `${ORIGIN}/workshop-list?q={search_term_string}` }, 'query-input': 'required name=search_term_string' },
		})
	})
})
