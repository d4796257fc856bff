import crypto from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { carBrands, cities, notifications, serviceRequests, users, workshopCarBrands, workshops } from '~/db/schema'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { createServiceRequest, widenRequest } from '~/domain/service-flow/request-moves.server'
import { listOpenRequests } from '~/domain/service-flow/offers.server'
import { WidenRequestSchema } from '~/domain/service-flow/requests'
import { getRequestForWorkshop } from '~/domain/service-flow/requests.server'
import { action as requestFormAction } from '~/routes/_app.new-service-register'
import { commitCsrfToken } from '~/utils/csrf.server'
import { db } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { createCustomer, signedInRequest } from '../support/accounts'
import { customerWithVehicle, inDays, workshopOffering } from '../support/flow'
import { ROUTER_ARGS } from '#tests/support/router-args'

/**
 * Issue 15: a request reaches the workshops that do one of its services, serve the vehicle's
 * brand (or list no brands) and sit in the request's city when it names one, and no others:
 * the same rule for being told, seeing it, and bidding on it.
 */

async function cityId(code: string) {
	return (await db.select().from(cities).where(eq(cities.code, code)))[0]!.id
}

async function workshopWith(serviceId: string, options: { city?: string; brands?: string[] } = {}) {
	const workshop = await workshopOffering([serviceId])
	if (options.city) await db.update(workshops).set({ cityId: await cityId(options.city) }).where(eq(workshops.id, workshop.workshopId))
	for (const code of options.brands ?? []) {
		const [brand] = await db.select().from(carBrands).where(eq(carBrands.code, code))
		await db.insert(workshopCarBrands).values({ workshopId: workshop.workshopId, itemId: brand!.id })
	}
	return workshop
}

async function told(workshop: WorkshopActor, requestId: string) {
	const rows = await db
		.select()
		.from(notifications)
		.where(and(eq(notifications.userId, workshop.userId), eq(notifications.receivedId, requestId)))
	return rows.length > 0
}

describe('which workshops a request reaches', () => {
	test('services, then the vehicle’s brand, then the request’s city', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle() // a Toyota
		const anyBrand = await workshopWith(refs.brakes, { city: 'tallinn' })
		const toyota = await workshopWith(refs.brakes, { city: 'tallinn', brands: ['toyota', 'bmw'] })
		const bmwOnly = await workshopWith(refs.brakes, { city: 'tallinn', brands: ['bmw'] })
		const tartu = await workshopWith(refs.brakes, { city: 'tartu' })
		const otherService = await workshopWith(refs.bodywork, { city: 'tallinn' })
		const requestId = await createServiceRequest(
			customer.id,
			{ vehicleId, serviceIds: [refs.brakes], preferredAt: inDays(3), location: 'Mustamäe', cityId: await cityId('tallinn'), details: 'Squeaks' },
			[],
		)

		const matching = [anyBrand, toyota]
		const notMatching = [bmwOnly, tartu, otherService]
		for (const workshop of matching) {
			expect(await told(workshop, requestId), workshop.workshopName).toBe(true)
			const { items } = await listOpenRequests(workshop.workshopId, 'en')
			expect(items.map((item) => item.id)).toContain(requestId)
			expect((await getRequestForWorkshop(workshop.workshopId, requestId, 'en')).id).toBe(requestId)
		}
		for (const workshop of notMatching) {
			expect(await told(workshop, requestId), workshop.workshopName).toBe(false)
			const { items } = await listOpenRequests(workshop.workshopId, 'en')
			expect(items.map((item) => item.id)).not.toContain(requestId)
			await expect(getRequestForWorkshop(workshop.workshopId, requestId, 'en')).rejects.toMatchObject({ status: 404 })
			await expect(makeOffer(workshop, requestId, { price: 5_000 }, null)).rejects.toMatchObject({ status: 404 })
		}
		await makeOffer(toyota, requestId, { price: 5_000 }, null)
	})

	test('a request that names no city reaches matching workshops wherever they are', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const tartu = await workshopWith(refs.tyres, { city: 'tartu', brands: ['toyota'] })
		const requestId = await createServiceRequest(
			customer.id,
			{ vehicleId, serviceIds: [refs.tyres], preferredAt: inDays(3), location: 'Anywhere', details: 'Winter tyres' },
			[],
		)
		expect(await told(tartu, requestId)).toBe(true)
	})

	test('a widened request reaches the workshops it did not before, once', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const brakesHere = await workshopWith(refs.brakes, { city: 'tallinn' })
		const bodyworkHere = await workshopWith(refs.bodywork, { city: 'tallinn' })
		const brakesTartu = await workshopWith(refs.brakes, { city: 'tartu' })
		const requestId = await createServiceRequest(
			customer.id,
			{ vehicleId, serviceIds: [refs.brakes], preferredAt: inDays(3), location: 'Kesklinn', cityId: await cityId('tallinn'), details: 'Squeaks' },
			[],
		)
		const toldCount = async (workshop: WorkshopActor) =>
			(await db.select().from(notifications).where(and(eq(notifications.userId, workshop.userId), eq(notifications.receivedId, requestId)))).length
		expect([await toldCount(brakesHere), await toldCount(bodyworkHere), await toldCount(brakesTartu)]).toEqual([1, 0, 0])

		// Nothing to widen by is refused before anything changes; so is an unknown service.
		expect(WidenRequestSchema.safeParse({}).success).toBe(false)
		await expect(widenRequest(customer.id, requestId, { serviceIds: [crypto.randomUUID()] })).rejects.toMatchObject({ field: 'serviceIds', status: 422 })
		// Not another customer's to widen.
		const stranger = await createCustomer()
		await expect(widenRequest(stranger.id, requestId, { serviceIds: [refs.bodywork] })).rejects.toMatchObject({ status: 404 })

		expect(await widenRequest(customer.id, requestId, { serviceIds: [refs.bodywork] })).toBeGreaterThanOrEqual(1)
		expect(await widenRequest(customer.id, requestId, { serviceIds: [], anyCity: 'on' })).toBeGreaterThanOrEqual(1)
		expect([await toldCount(brakesHere), await toldCount(bodyworkHere), await toldCount(brakesTartu)]).toEqual([1, 1, 1])
		// Asked again with nothing new: nobody is told twice.
		expect(await widenRequest(customer.id, requestId, { serviceIds: [refs.bodywork], anyCity: 'on' })).toBe(0)
		const { items } = await listOpenRequests(brakesTartu.workshopId, 'en')
		expect(items.map((item) => item.id)).toContain(requestId)

		// Once a workshop is chosen, the request is no longer widened.
		const offerId = await makeOffer(brakesTartu, requestId, { price: 9_000 }, null)
		await selectOffer(customer.id, requestId, offerId)
		await expect(widenRequest(customer.id, requestId, { serviceIds: [], anyCity: 'on' })).rejects.toMatchObject({ status: 409 })
	})
})

describe('a request addressed to a workshop from its page (issue 16)', () => {
	async function visible(workshop: WorkshopActor, requestId: string) {
		const { items } = await listOpenRequests(workshop.workshopId, 'en')
		return items.some((item) => item.id === requestId)
	}

	test('the named workshop is told and may bid whatever its filters; the matching ones too, unless the customer asked only it', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle() // a Toyota
		const named = await workshopWith(refs.bodywork, { city: 'tartu', brands: ['bmw'] }) // would match nothing
		const matching = await workshopWith(refs.brakes, { city: 'tallinn' })
		const base = { vehicleId, serviceIds: [refs.brakes], preferredAt: inDays(3), location: 'Mustamäe', cityId: await cityId('tallinn'), details: 'Squeaks' }

		const withOthers = await createServiceRequest(customer.id, { ...base, workshopId: named.workshopId, alsoOthers: 'on' }, [])
		for (const workshop of [named, matching]) {
			expect(await told(workshop, withOthers), workshop.workshopName).toBe(true)
			expect(await visible(workshop, withOthers), workshop.workshopName).toBe(true)
		}
		await makeOffer(named, withOthers, { price: 9_000 }, null)

		const onlyNamed = await createServiceRequest(customer.id, { ...base, workshopId: named.workshopId }, [])
		expect(await told(named, onlyNamed)).toBe(true)
		expect((await getRequestForWorkshop(named.workshopId, onlyNamed, 'en')).id).toBe(onlyNamed)
		expect(await told(matching, onlyNamed)).toBe(false)
		expect(await visible(matching, onlyNamed)).toBe(false)
		await expect(makeOffer(matching, onlyNamed, { price: 5_000 }, null)).rejects.toMatchObject({ status: 404 })

		// Widening asks every matching workshop after all.
		await widenRequest(customer.id, onlyNamed, WidenRequestSchema.parse({ anyCity: 'on' }))
		expect(await told(matching, onlyNamed)).toBe(true)
		await makeOffer(matching, onlyNamed, { price: 5_000 }, null)
	})

	test('the request form sends the named workshop and the "also ask others" box through to the request', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const named = await workshopWith(refs.bodywork)
		const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const signedIn = await signedInRequest(customer.id, `http://localhost/new-service-register?workshop=${encodeId(named.workshopId)}`)
		const cookie = `${signedIn.request.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
		const send = async (alsoOthers: boolean) => {
			const form = new URLSearchParams({ csrf: token!, vehicleId, serviceIds: refs.brakes, preferredAt: '2030-01-10T09:00', location: 'Tartu', details: 'Squeaks' })
			form.set('workshopId', named.workshopId)
			if (alsoOthers) form.set('alsoOthers', 'on')
			const response = (await requestFormAction({
				request: new Request(signedIn.request.url, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form }),
				params: {},
				...ROUTER_ARGS, context: {},
			})) as Response
			expect(response.status).toBe(302)
			const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.customerId, customer.id)).orderBy(desc(serviceRequests.createdAt)).limit(1)
			return { addressedWorkshopId: request!.addressedWorkshopId, addressedOnly: request!.addressedOnly }
		}
		expect(await send(false)).toEqual({ addressedWorkshopId: named.workshopId, addressedOnly: true })
		expect(await send(true)).toEqual({ addressedWorkshopId: named.workshopId, addressedOnly: false })
	})

	test('an unknown workshop, or one whose owner is blocked, is that field’s error and nothing is stored', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const blocked = await workshopWith(refs.brakes)
		await db.update(users).set({ blocked: true }).where(eq(users.id, blocked.userId))
		const base = { vehicleId, serviceIds: [refs.brakes], preferredAt: inDays(3), location: 'Mustamäe', details: 'Squeaks' }
		for (const workshopId of [crypto.randomUUID(), blocked.workshopId]) {
			await expect(createServiceRequest(customer.id, { ...base, workshopId }, [])).rejects.toMatchObject({ field: 'workshopId', key: 'customer:request.unknownWorkshop' })
		}
		expect(await db.select().from(serviceRequests).where(eq(serviceRequests.customerId, customer.id))).toEqual([])
	})
})
