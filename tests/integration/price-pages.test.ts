import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { cities, priceListItems, users, workshops } from '~/db/schema'
import { db, queryRows } from '~/db/db.server'
import { forgetWorkshopCounts } from '~/domain/directory/workshops.server'
import { forgetPricePages } from '~/domain/pricing/price-pages.server'
import { loader as cityLoader } from '~/routes/_public.prices.$service_.$city'
import { loader as serviceLoader } from '~/routes/_public.prices.$service'
import { loader as listLoader } from '~/routes/_public.workshop-list'
import { loader as sitemapLoader } from '~/routes/sitemap[.]xml'
import { isSharedPage } from '~/utils/http-cache'
import { encodeId } from '~/utils/public-id'
import { tallinnDay } from '~/utils/time'
import { demoData } from '#tests/support/demo-data'

/** Issue 35, the price pages through their loaders, on the demo data (whose jobs give Tallinn and Tartu their usual prices). */
const ORIGIN = 'http://localhost:3000'
const args = (path: string) => {
	const url = new URL(path, 'http://localhost')
	const [, , service, city] = url.pathname.split('/')
	return { request: new Request(url), params: { service, ...(city ? { city } : {}) }, context: { clientIp: '192.0.2.10' } } as never
}
const thrown = async (run: () => Promise<unknown>) => {
	try {
		await run()
	} catch (error) {
		return error as Response
	}
	throw new Error('expected the loader to throw')
}
const workshopNamed = async (name: string) => (await db.select().from(workshops).where(eq(workshops.workshopName, name)))[0]!
const day = (days: number) => tallinnDay(new Date(Date.now() + days * 24 * 60 * 60 * 1000))

beforeAll(async () => {
	await demoData()
})

describe('a service’s prices in a city', () => {
	test('the usual price in the city’s county per vehicle class, with what it rests on, and the workshops that do it', async () => {
		const data = await cityLoader(args('/prices/brakes/tallinn?lng=en'))
		expect(data.names).toEqual({ service: 'Brake repair', city: 'Tallinn', area: 'Harju County' })
		const family = data.ranges.find((range) => range.vehicleClass === 'family')!
		expect(family.usual).toMatch(/^€\d+ – €\d+$/)
		expect(family.median).toMatch(/^€\d+$/)
		expect(family.jobs).toBeGreaterThanOrEqual(5)
		expect(family.workshops).toBeGreaterThanOrEqual(3)
		expect(family.period).toMatch(/^[A-Z][a-z]+ \d{4} – [A-Z][a-z]+ \d{4}$/)
		expect(data.otherClasses).toBe(true)
		// Tallinn's four demo workshops doing brakes, best rated first, none with a fixed price yet.
		expect(data.offering.items.map((workshop) => workshop.name).sort()).toEqual(['EV Garaaž', 'Kask Autoteenindus', 'Premium Auto Service Tallinn', 'Tallinna Rehvikeskus'])
		expect(data.offering).toMatchObject({ total: 4, inDirectory: 4 })
		expect(data.offering.items[0]!.path).toMatch(/^\/workshop-details\/[\w-]+$/)
		expect(data.directory).toBe('/workshop-list?city=tallinn&service=brakes')
		expect(data.trail.map((crumb) => [crumb.name, crumb.path])).toEqual([
			['Home', '/'],
			['Brake repair: prices', '/prices/brakes'],
			['Tallinn', '/prices/brakes/tallinn'],
		])
		expect(data.meta).toMatchObject({ title: 'Brake repair in Tallinn: the usual price and workshops’ prices', canonical: `${ORIGIN}/prices/brakes/tallinn?lng=en` })

		// Search engines read a Service whose offers are the usual range (the quartiles) as an AggregateOffer.
		const [range] = await queryRows<{ p25: number; p75: number; jobs: number }>(
			db,
			sql`select p25_cents as p25, p75_cents as p75, jobs from price_ranges r join services s on s.id = r.service_id where s.code = 'brakes' and r.county = 'harju' and r.vehicle_class = 'family'`,
		)
		expect(data.searchData).toMatchObject({
			'@type': 'Service',
			name: 'Brake repair',
			url: `${ORIGIN}/prices/brakes/tallinn`,
			areaServed: { '@type': 'City', name: 'Tallinn', containedInPlace: { '@type': 'AdministrativeArea', name: 'Harju County' } },
			offers: expect.arrayContaining([
				{ '@type': 'AggregateOffer', name: 'Family car', lowPrice: range!.p25 / 100, highPrice: range!.p75 / 100, priceCurrency: 'EUR', offerCount: range!.jobs, areaServed: { '@type': 'AdministrativeArea', name: 'Harju County' } },
			]),
		})
	})

	test('in Estonian and Russian', async () => {
		const et = await cityLoader(args('/prices/oil-change/tartu?lng=et'))
		expect(et.names).toEqual({ service: 'Õlivahetus', city: 'Tartu', area: 'Tartumaa' })
		expect(et.ranges.find((range) => range.vehicleClass === 'family')!.usual).toMatch(/^\d+‒\d+\s€$/)
		const ru = await cityLoader(args('/prices/oil-change/tartu?lng=ru'))
		expect(ru.names).toEqual({ service: 'Замена масла', city: 'Тарту', area: 'Тартумаа' })
		expect(ru.meta.title).toBe('Замена масла — Тарту: обычная цена и цены автосервисов')
	})

	test('a workshop’s fixed prices valid today, with VAT, cheapest first; not the expired or coming ones, not a blocked owner’s; it leaves the list of the others', async () => {
		const tyres = await workshopNamed('Tallinna Rehvikeskus')
		const premium = await workshopNamed('Premium Auto Service Tallinn')
		const ev = await workshopNamed('EV Garaaž')
		const [brakes] = await queryRows<{ id: string }>(db, sql`select id from services where code = 'brakes'`)
		const item = (workshopId: string, vehicleClass: 'family' | 'small' | 'suv_van', priceCents: number, validFrom: string, validUntil: string | null = null, engineBand: 'any' | 'up_to_1600' = 'any') => ({
			workshopId,
			serviceId: brakes!.id,
			vehicleClass,
			engineBand,
			priceCents,
			durationMinutes: 120,
			validFrom,
			validUntil,
		})
		await db.insert(priceListItems).values([
			item(tyres.id, 'family', 19_900, day(-30)),
			item(tyres.id, 'small', 16_950, day(-30), null, 'up_to_1600'),
			item(tyres.id, 'suv_van', 15_000, day(-400), day(-31)),
			item(premium.id, 'family', 24_500, day(-10), day(10)),
			item(premium.id, 'suv_van', 9_900, day(5)),
			item(ev.id, 'family', 12_000, day(-10)),
		])
		await db.update(users).set({ blocked: true }).where(eq(users.id, ev.userId))
		// What a price list's save and an owner's blocking do (the pages keep the city's workshops a minute).
		await forgetPricePages()
		try {
			const data = await cityLoader(args('/prices/brakes/tallinn?lng=en'))
			expect(data.listed).toEqual([
				{
					name: 'Tallinna Rehvikeskus',
					path: `/workshop-details/${encodeId(tyres.id)}`,
					prices: [
						{ key: 'small-up_to_1600', label: 'Small car · Engine up to 1.6 l', price: '€169.50 with VAT' },
						{ key: 'family-any', label: 'Family car', price: '€199.00 with VAT' },
					],
				},
				{ name: 'Premium Auto Service Tallinn', path: `/workshop-details/${encodeId(premium.id)}`, prices: [{ key: 'family-any', label: 'Family car', price: '€245.00 with VAT' }] },
			])
			expect(data.offering.items.map((workshop) => workshop.name)).toEqual(['Kask Autoteenindus'])
			expect(data.offering).toMatchObject({ total: 1, inDirectory: 3 })
			expect((data.searchData as unknown as { offers: unknown[] }).offers).toContainEqual({
				'@type': 'Offer',
				name: 'Family car',
				price: 199,
				priceCurrency: 'EUR',
				priceSpecification: { '@type': 'PriceSpecification', price: 199, priceCurrency: 'EUR', valueAddedTaxIncluded: true },
				offeredBy: { '@type': 'AutoRepair', name: 'Tallinna Rehvikeskus', url: `${ORIGIN}/workshop-details/${encodeId(tyres.id)}` },
			})
		} finally {
			await db.update(users).set({ blocked: false }).where(eq(users.id, ev.userId))
			await db.delete(priceListItems)
			await forgetPricePages()
		}
	})

	test('not enough jobs yet where a county has too few; a city with no county yet says it by the city’s name', async () => {
		const parnu = await cityLoader(args('/prices/bodywork/parnu?lng=en'))
		expect(parnu.ranges).toEqual([])
		expect(parnu.names.area).toBe('Pärnu County')
		expect(parnu.offering.items.map((workshop) => workshop.name)).toEqual(['Pärnu Kereremont'])

		await db.update(cities).set({ county: null }).where(eq(cities.code, 'viljandi'))
		try {
			const viljandi = await cityLoader(args('/prices/brakes/viljandi?lng=en'))
			expect(viljandi.names.area).toBe('Viljandi')
			expect(viljandi.ranges).toEqual([])
		} finally {
			await db.update(cities).set({ county: 'viljandi' }).where(eq(cities.code, 'viljandi'))
		}
	})

	test('an unknown or hidden service or city is not found', async () => {
		for (const path of ['/prices/brakes/atlantis', '/prices/teleport/tallinn', '/prices/BRAKES/tallinn']) {
			expect((await thrown(() => cityLoader(args(path)))).status, path).toBe(404)
		}
		await db.update(cities).set({ active: false }).where(eq(cities.code, 'paide'))
		try {
			expect((await thrown(() => cityLoader(args('/prices/brakes/paide')))).status).toBe(404)
		} finally {
			await db.update(cities).set({ active: true }).where(eq(cities.code, 'paide'))
		}
	})
})

describe('a service’s prices', () => {
	test('the usual price by county, and the cities whose workshops do it, each leading to its page', async () => {
		const data = await serviceLoader(args('/prices/diagnostics?lng=en'))
		expect(data.names).toEqual({ service: 'Diagnostics' })
		expect(data.counties.map((county) => county.name)).toEqual(expect.arrayContaining(['Harju County', 'Tartu County']))
		for (const county of data.counties) for (const range of county.ranges) expect(range.jobs).toBeGreaterThanOrEqual(5)
		expect(data.cities.find((city) => city.code === 'tartu')).toMatchObject({ name: 'Tartu', workshops: 3, path: '/prices/diagnostics/tartu' })
		expect(data.cities.find((city) => city.code === 'parnu')).toBeUndefined()
		expect(data.searchData).toMatchObject({ '@type': 'Service', name: 'Diagnostics', areaServed: { '@type': 'Country', name: 'Estonia' } })
		expect((data.searchData as unknown as { offers: Array<{ name: string }> }).offers.map((offer) => offer.name)).toContain('Family car, Tartu County')
		expect((await thrown(() => serviceLoader(args('/prices/teleport')))).status).toBe(404)
	})

	test('the directory filtered on a service leads to its prices, the city’s when a city is chosen', async () => {
		expect((await listLoader(args('/workshop-list?service=brakes&lng=en'))).prices).toEqual({ path: '/prices/brakes', label: 'Prices: Brake repair' })
		expect((await listLoader(args('/workshop-list?city=tartu&service=oil-change&lng=en'))).prices).toEqual({ path: '/prices/oil-change/tartu', label: 'Prices: Oil change in Tartu' })
		expect((await listLoader(args('/workshop-list?city=tartu&lng=en'))).prices).toBeNull()
	})
})

describe('search engines and caches', () => {
	test('the sitemap names every service’s page, and a city’s only where a listed workshop does the service', async () => {
		forgetWorkshopCounts()
		const xml = await (await sitemapLoader()).text()
		expect(xml).toContain(`<loc>${ORIGIN}/prices/bodywork</loc>`)
		expect(xml).toContain(`<loc>${ORIGIN}/prices/oil-change/tartu</loc>`)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="et" href="${ORIGIN}/prices/oil-change/tartu?lng=et"/>`)
		expect(xml).not.toContain('/prices/bodywork/tartu<')
		expect(xml).not.toContain('/prices/brakes/paide<')
	})

	test('the price pages are shared pages (public, an ETag), like the directory', () => {
		expect(isSharedPage('/prices/brakes')).toBe(true)
		expect(isSharedPage('/prices/brakes/tallinn')).toBe(true)
		expect(isSharedPage('/prices/brakes/tallinn.data')).toBe(true)
		expect(isSharedPage('/prices')).toBe(false)
		expect(isSharedPage('/prices/brakes/tallinn/more')).toBe(false)
	})
})
