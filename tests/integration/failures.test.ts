import { randomUUID } from 'node:crypto'
import { drizzle } from 'drizzle-orm/node-postgres'
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { DomainError, FieldError } from '~/utils/errors'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { createVehicle } from '~/domain/service-flow/vehicles.server'
import { BadRequest, errorResponse, failureResponse, isDatabaseUnavailable } from '~/utils/failures.server'
import { createPool, db } from '~/db/db.server'
import { dictionaryText } from '#tests/support/dictionary'
import { customerWithVehicle, inDays } from '#tests/support/flow'
import { failure } from '#tests/support/failure'

/** A query and a transaction through the portal's pool to a PostgreSQL server that is not there (nothing listens on port 1). */
async function unreachableDatabaseErrors() {
	const pool = createPool('postgres://postgres@127.0.0.1:1/none')
	try {
		return [await failure(() => drizzle(pool).execute(sql`select 1`)), await failure(() => drizzle(pool).transaction(async () => undefined))]
	} finally {
		await pool.end()
	}
}

describe('failures that are not bugs get their own answer', () => {
	test('the database out of reach: 503 with Retry-After, a translated page or API message', async () => {
		const [error, transactionError] = await unreachableDatabaseErrors()
		expect(isDatabaseUnavailable(error)).toBe(true)
		expect(isDatabaseUnavailable(transactionError)).toBe(true)
		// Another service out of reach (a payment provider) is not the database.
		expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }))).toBe(false)
		const page = (await failureResponse(error, new Request('http://localhost/workshop-list?lng=en')))!
		expect(page.status).toBe(503)
		expect(page.headers.get('Retry-After')).toBe('30')
		expect(await page.text()).toBe(dictionaryText('en', 'common', 'errors.unavailableText'))
		const api = (await failureResponse(error, new Request('http://localhost/admin/api/workshop-list', { headers: { 'Accept-Language': 'ru' } })))!
		expect(api.status).toBe(503)
		expect(await api.json()).toEqual({ status: 503, message: dictionaryText('ru', 'common', 'errors.unavailableText') })
		// Before any route runs (the start failed): a whole page, in the visitor's language.
		const early = await errorResponse(new Request('http://localhost/?lng=ru'), 503, { retryAfterSeconds: 30 })
		expect(early.headers.get('Retry-After')).toBe('30')
		expect(await early.text()).toContain(dictionaryText('ru', 'common', 'errors.unavailableTitle'))
	})

	test('a body that cannot be read, a refused move, a value the database refuses', async () => {
		const request = new Request('http://localhost/login?lng=en')
		// The body readers (app/uploads/multipart.server.ts) throw BadRequest for every unreadable body.
		const unsupported = (await failureResponse(new BadRequest(415), request))!
		expect([unsupported.status, await unsupported.text()]).toEqual([415, dictionaryText('en', 'common', 'errors.unsupportedType')])
		const conflict = (await failureResponse(new DomainError('common:errors.conflict', 409), request))!
		expect([conflict.status, await conflict.text()]).toEqual([409, dictionaryText('en', 'common', 'errors.conflict')])
		const nul = await failure(() => db.execute(sql`select ${'a\u0000b'}::text`))
		expect((await failureResponse(nul, request))!.status).toBe(400)
		// A bug is a bug: no answer, the caller lets it be the 500 it is.
		expect(await failureResponse(new Error('a real bug'), request)).toBeNull()
	})
})

describe('unknown reference ids are the field’s own error', () => {
	test('a vehicle’s brand, a request’s services and city', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const vehicle = { registrationNumber: 'ZZ123', vehicleYear: 2018, brandId: randomUUID(), model: 'Corolla', modelSpecification: '1.8', transmission: 'automatic' as const, mileage: 1000 }
		await expect(createVehicle(customer.id, vehicle)).rejects.toMatchObject({ field: 'brandId', key: 'common:validation.unknownChoice', status: 422 })
		const request = { vehicleId, serviceIds: [randomUUID()], preferredAt: inDays(2), location: 'Tallinn', details: 'x' }
		await expect(createServiceRequest(customer.id, request, [])).rejects.toMatchObject({ field: 'serviceIds', status: 422 })
		await expect(createServiceRequest(customer.id, { ...request, serviceIds: [refs.tyres], cityId: randomUUID() }, [])).rejects.toMatchObject({ field: 'cityId', status: 422 })
		await expect(createServiceRequest(customer.id, { ...request, serviceIds: [refs.tyres], vehicleId: randomUUID() }, [])).rejects.toBeInstanceOf(FieldError)
	})
})
