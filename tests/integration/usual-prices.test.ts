import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { serviceRequests, vehicles } from '~/db/schema'
import { db } from '~/db/db.server'
import { rangePeriod } from '~/domain/pricing/price-ranges.server'
import { offerRanges, usualPrices } from '~/domain/pricing/usual-prices.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { loader as usualPricesLoader } from '~/routes/resources.usual-prices'
import { action as requestFormAction } from '~/routes/_app.new-service-register'
import { commitCsrfToken } from '~/utils/csrf.server'
import { BadRequest } from '~/utils/failures.server'
import { DomainError } from '~/utils/errors'
import { formatMonthRange } from '~/utils/format'
import { signedInRequest } from '#tests/support/accounts'
import { customerWithVehicle, inDays, openRequest, referenceData } from '#tests/support/flow'
import { failure } from '#tests/support/failure'
import { refused } from '#tests/support/refusals'
import { cityIn, completedJobs, workshopIn } from '#tests/support/usual-prices'
import { ROUTER_ARGS } from '#tests/support/router-args'

/**
 * The usual price where a customer decides (issue 35, decision 0149): beside the services on the
 * request form (the live look-up and the form's "Show usual prices") and the verdict beside each
 * offer's total. The ranges come from jobs played by the moves in a county of this file's own
 * towns (Hiiu County): brake repairs paid €120, €140, €170, €210 and €250 at three workshops, so
 * usually €140–€210 with a median of €170.
 */
describe('the usual price shown', () => {
	let refs: Awaited<ReturnType<typeof referenceData>>
	let town: string
	let elsewhere: string
	let unplaced: string

	beforeAll(async () => {
		refs = await referenceData()
		town = await cityIn('hiiu')
		elsewhere = await cityIn('rapla')
		unplaced = await cityIn(null)
		const workshops = [await workshopIn(town, [refs.brakes]), await workshopIn(town, [refs.brakes]), await workshopIn(town, [refs.brakes])]
		await completedJobs(refs.brakes, workshops, [120_00, 140_00, 170_00, 210_00, 250_00])
	}, 120_000)

	test('beside the services: the range of each, for the vehicle’s class in the city’s county, or none', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const period = rangePeriod()
		const prices = await usualPrices(customer.id, { vehicleId, cityId: town, serviceIds: [refs.tyres, refs.brakes] }, 'en')
		expect(prices).toMatchObject({ vehicleClass: 'family', county: 'hiiu', cityChosen: true })
		// In the catalogue's order; a service without enough jobs has no figure.
		expect(prices.services.map((service) => [service.name, service.range])).toEqual([
			['Brake repair', { range: '€140 – €210', median: '€170', jobs: 5, workshops: 3, period: formatMonthRange(period.periodFrom, period.periodTo, 'en') }],
			['Tyre change and storage', null],
		])
		// In the reader's language, by Intl.
		const et = await usualPrices(customer.id, { vehicleId, cityId: town, serviceIds: [refs.brakes] }, 'et')
		expect(et.services[0]!.range).toMatchObject({ median: '170\u00a0€' })
		expect(et.services[0]!.range!.range).toMatch(/^140.210\u00a0€$/)
		expect(et.services[0]!.name).toBe('Pidurite remont')
	})

	test('no range for another class, another county, a city not placed in a county, or without a city', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const ask = (cityId?: string) => usualPrices(customer.id, { vehicleId, cityId, serviceIds: [refs.brakes] }, 'en')
		expect((await ask(elsewhere)).services[0]!.range).toBeNull()
		expect(await ask(unplaced)).toMatchObject({ county: null, cityChosen: true })
		expect(await ask()).toMatchObject({ county: null, cityChosen: false, services: [{ id: refs.brakes, range: null }] })
		await db.update(vehicles).set({ vehicleClass: 'suv_van' }).where(eq(vehicles.id, vehicleId))
		expect(await ask(town)).toMatchObject({ vehicleClass: 'suv_van', county: 'hiiu', services: [{ range: null }] })
	})

	test('only for the customer’s own vehicle; an unknown city or service is a bad request', async () => {
		const { vehicleId } = await customerWithVehicle()
		const other = await customerWithVehicle()
		await refused(usualPrices(other.customer.id, { vehicleId, cityId: town, serviceIds: [refs.brakes] }, 'en'), 'common:errors.notFoundTitle')
		await db.update(vehicles).set({ deletedAt: new Date() }).where(eq(vehicles.id, other.vehicleId))
		await refused(usualPrices(other.customer.id, { vehicleId: other.vehicleId, cityId: town, serviceIds: [refs.brakes] }, 'en'), 'common:errors.notFoundTitle')
		const { customer, vehicleId: own } = await customerWithVehicle()
		await refused(usualPrices(customer.id, { vehicleId: own, cityId: crypto.randomUUID(), serviceIds: [refs.brakes] }, 'en'), 'common:validation.unknownChoice')
		await refused(usualPrices(customer.id, { vehicleId: own, cityId: town, serviceIds: [refs.brakes, crypto.randomUUID()] }, 'en'), 'common:validation.unknownChoice')
	})

	test('the form’s live look-up answers the ranges as JSON, 404 for another’s vehicle and 400 for a bad query', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const other = await customerWithVehicle()
		const look = async (query: string, userId = customer.id) => {
			const { request } = await signedInRequest(userId, `http://localhost/resources/usual-prices?${query}&lng=en`)
			return usualPricesLoader({ request, params: {}, context: {} } as never)
		}
		const answer = await look(`vehicle=${vehicleId}&city=${town}&service=${refs.brakes}&service=${refs.tyres}`)
		expect(answer.status).toBe(200)
		expect(answer.headers.get('Cache-Control')).toBe('private, no-store')
		const body = (await answer.json()) as { services: Array<{ id: string; range: { range: string } | null }> }
		expect(body.services).toMatchObject([{ id: refs.brakes, range: { range: '€140 – €210' } }, { id: refs.tyres, range: null }])
		for (const [query, status] of [
			[`vehicle=${vehicleId}&city=${town}`, 400],
			[`vehicle=nope&service=${refs.brakes}`, 400],
			[`vehicle=${vehicleId}&city=nope&service=${refs.brakes}`, 400],
			[`vehicle=${vehicleId}&city=${crypto.randomUUID()}&service=${refs.brakes}`, 400],
			[`vehicle=${other.vehicleId}&city=${town}&service=${refs.brakes}`, 404],
		] as const) {
			// Thrown as the refusal the server answers with its status, translated (failures.server.ts).
			const refusal = await failure(() => look(query))
			expect(refusal instanceof BadRequest || refusal instanceof DomainError, query).toBe(true)
			expect((refusal as { status: number }).status, query).toBe(status)
		}
	})

	test('without JavaScript, "Show usual prices" sends the form back as typed, with the prices and no errors, and stores nothing', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const signedIn = await signedInRequest(customer.id, 'http://localhost/new-service-register?lng=en')
		const cookie = `${signedIn.request.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
		const form = new URLSearchParams({ csrf: token!, intent: 'usualPrices', vehicleId, serviceIds: refs.brakes, cityId: town, location: '', details: 'Squeaks when braking' })
		const answer = (await requestFormAction({
			request: new Request(signedIn.request.url, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form }),
			params: {},
			...ROUTER_ARGS, context: {},
		})) as unknown as { data: { result: { status: string; initialValue: Record<string, unknown>; error?: unknown }; usualPrices: { services: Array<{ range: { range: string } | null }> } } }
		expect(answer.data.result.status).toBe('success')
		expect(answer.data.result.error).toBeUndefined()
		expect(answer.data.result.initialValue).toMatchObject({ details: 'Squeaks when braking', cityId: town, vehicleId, serviceIds: refs.brakes })
		expect(answer.data.usualPrices.services[0]!.range!.range).toBe('€140 – €210')
		expect(await db.select().from(serviceRequests).where(eq(serviceRequests.customerId, customer.id))).toEqual([])
	})

	test('beside each offer: its total against the range in its workshop’s county, for a request of one service', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
		const offer = async (cityId: string, cents: number) => makeOffer(await workshopIn(cityId, [refs.brakes]), requestId, { price: cents }, null)
		const above = await offer(town, 300_00)
		const within = await offer(town, 210_00)
		const edge = await offer(town, 140_00)
		const below = await offer(town, 99_00)
		// No range where the workshop works (another county): nothing said.
		const away = await offer(elsewhere, 300_00)
		const ranges = await offerRanges(customer.id, requestId, 'en')
		expect(Object.fromEntries(ranges)).toEqual({
			[above]: { verdict: 'above', range: '€140 – €210' },
			[within]: { verdict: 'within', range: '€140 – €210' },
			[edge]: { verdict: 'within', range: '€140 – €210' },
			[below]: { verdict: 'below', range: '€140 – €210' },
		})
		expect(ranges.has(away)).toBe(false)
		// Only the request's customer.
		const other = await customerWithVehicle()
		expect((await offerRanges(other.customer.id, requestId, 'en')).size).toBe(0)
	})

	test('no verdict on a request for several services, nor for a vehicle of a class without a range', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const several = await createServiceRequest(customer.id, { vehicleId, serviceIds: [refs.brakes, refs.tyres], preferredAt: inDays(3), location: 'Kärdla', details: 'Both' }, [])
		await makeOffer(await workshopIn(town, [refs.brakes, refs.tyres]), several, { price: 500_00 }, null)
		expect((await offerRanges(customer.id, several, 'en')).size).toBe(0)
		const van = await customerWithVehicle()
		await db.update(vehicles).set({ vehicleClass: 'suv_van' }).where(and(eq(vehicles.id, van.vehicleId), eq(vehicles.ownerId, van.customer.id)))
		const vanRequest = await openRequest(van.customer.id, van.vehicleId, [refs.brakes])
		await makeOffer(await workshopIn(town, [refs.brakes]), vanRequest, { price: 500_00 }, null)
		expect((await offerRanges(van.customer.id, vanRequest, 'en')).size).toBe(0)
	})
})
