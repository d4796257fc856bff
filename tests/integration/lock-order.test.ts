import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { offers, serviceRequests } from '~/db/schema'
import { DomainError } from '~/utils/errors'
import { type WorkshopActor } from '~/utils/auth.server'
import { deleteOffer, makeOffer, selectOffer, updateOffer } from '~/domain/service-flow/offer-moves.server'
import { cancelRequest } from '~/domain/service-flow/request-moves.server'
import { afterCommit, db, queryRows, transaction, transactionStats } from '~/db/db.server'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * One lock order for every status move (request, then its offers; docs/decisions/0070) and a
 * retry of transactions PostgreSQL aborts: moves racing each other end in one consistent state,
 * and the loser gets a DomainError (a translated 409), never a database error (a 500).
 */

const ROUNDS = 8

async function requestWithTwoOffers() {
	const { customer, vehicleId, refs } = await customerWithVehicle()
	const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
	const first = await workshopOffering([refs.tyres])
	const second = await workshopOffering([refs.tyres])
	const firstOffer = await makeOffer(first, requestId, { price: 10_000 }, null)
	const secondOffer = await makeOffer(second, requestId, { price: 12_000 }, null)
	return { customerId: customer.id, requestId, first, firstOffer, secondOffer }
}

/** Every refusal is the domain's, with a 4xx status. */
function expectOnlyDomainRefusals(results: PromiseSettledResult<unknown>[]) {
	for (const result of results) {
		if (result.status === 'fulfilled') continue
		expect(result.reason, String(result.reason)).toBeInstanceOf(DomainError)
		expect((result.reason as DomainError).status).toBeLessThan(500)
	}
}

async function stateOf(requestId: string) {
	const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
	const rows = await db.select().from(offers).where(eq(offers.requestId, requestId))
	return { request: request!, offers: rows }
}

describe('racing status moves', () => {
	// Under the one lock order PostgreSQL never has to break a deadlock: no transaction is run again.
	let retriedBefore = 0
	beforeEach(() => {
		retriedBefore = transactionStats.retried
	})
	afterEach(() => {
		expect(transactionStats.retried - retriedBefore).toBe(0)
	})

	test('a workshop withdrawing its offer while the customer selects it: exactly one wins', async () => {
		for (let round = 0; round < ROUNDS; round++) {
			const { customerId, requestId, first, firstOffer, secondOffer } = await requestWithTwoOffers()
			const [withdrawn, selected] = await Promise.allSettled([deleteOffer(first, firstOffer), selectOffer(customerId, requestId, firstOffer)])
			expectOnlyDomainRefusals([withdrawn, selected])
			expect([withdrawn.status, selected.status].filter((s) => s === 'fulfilled')).toHaveLength(1)
			const { request, offers: rows } = await stateOf(requestId)
			if (selected.status === 'fulfilled') {
				expect(request.status).toBe('in_progress')
				expect(request.selectedOfferId).toBe(firstOffer)
				expect(rows.find((o) => o.id === secondOffer)!.status).toBe('rejected')
			} else {
				expect(rows.map((o) => o.id)).toEqual([secondOffer])
				expect(request.status).toBe('offer')
			}
		}
	})

	test('a workshop withdrawing its offer while the customer cancels the request: a consistent end', async () => {
		for (let round = 0; round < ROUNDS; round++) {
			const { customerId, requestId, first, firstOffer, secondOffer } = await requestWithTwoOffers()
			const results = await Promise.allSettled([deleteOffer(first, firstOffer), cancelRequest(customerId, requestId)])
			expectOnlyDomainRefusals(results)
			const { request, offers: rows } = await stateOf(requestId)
			expect(request.status).toBe('cancelled')
			expect(rows.find((o) => o.id === secondOffer)!.status).toBe('request_cancelled')
			const firstRow = rows.find((o) => o.id === firstOffer)
			// Withdrawn before the cancellation, or ended by it: never left pending.
			if (results[0].status === 'fulfilled') expect(firstRow).toBeUndefined()
			else expect(firstRow!.status).toBe('request_cancelled')
		}
	})

	test('editing, withdrawing, selecting and cancelling at once never fails with a database error', async () => {
		for (let round = 0; round < ROUNDS; round++) {
			const { customerId, requestId, first, firstOffer, secondOffer } = await requestWithTwoOffers()
			const results = await Promise.allSettled([
				updateOffer(first, firstOffer, { price: 9_000 }, null),
				selectOffer(customerId, requestId, secondOffer),
				deleteOffer(first, firstOffer),
				cancelRequest(customerId, requestId),
				selectOffer(customerId, requestId, firstOffer),
			])
			expectOnlyDomainRefusals(results)
			const { request, offers: rows } = await stateOf(requestId)
			const selected = rows.filter((o) => o.status === 'selected')
			// Either one offer was selected (and the request is in progress), or it was cancelled.
			if (request.status === 'in_progress') expect(selected.map((o) => o.id)).toEqual([request.selectedOfferId])
			else expect(request.status).toBe('cancelled')
			expect(rows.filter((o) => o.status === 'pending')).toHaveLength(0)
		}
	})
})

describe('transaction()', () => {
	const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' })

	test('runs a transaction again that PostgreSQL aborted as a deadlock; after-commit work runs once', async () => {
		let attempts = 0
		let committed = 0
		const result = await transaction(async (tx) => {
			attempts++
			await afterCommit(tx, async () => {
				committed++
			})
			if (attempts === 1) throw deadlock()
			return 'done'
		})
		expect(result).toBe('done')
		expect(attempts).toBe(2)
		expect(committed).toBe(1)
	})

	test('gives up after a few attempts with a 409 the user can read', async () => {
		let attempts = 0
		const failing = transaction(async () => {
			attempts++
			throw Object.assign(new Error('could not serialize access'), { code: '40001' })
		})
		await expect(failing).rejects.toMatchObject({ key: 'common:errors.conflict', status: 409 })
		expect(attempts).toBe(4)
		// A real constraint error is not retried: it is the caller's to answer.
		let once = 0
		await expect(
			transaction(async () => {
				once++
				throw Object.assign(new Error('duplicate key'), { code: '23505' })
			}),
		).rejects.toMatchObject({ code: '23505' })
		expect(once).toBe(1)
	})

	test('a withdrawn offer cannot be selected: the customer is told it is no longer available', async () => {
		const { customerId, requestId, first, firstOffer } = await requestWithTwoOffers()
		await deleteOffer(first as WorkshopActor, firstOffer)
		await expect(selectOffer(customerId, requestId, firstOffer)).rejects.toMatchObject({ key: 'customer:offers.cannotSelect', status: 409 })
		const left = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from offers where request_id = ${requestId} and status = 'pending'`)
		expect(left[0]!.n).toBe(1)
		expect(await db.select().from(offers).where(and(eq(offers.requestId, requestId), eq(offers.status, 'selected')))).toHaveLength(0)
	})
})

describe('racing billing moves', () => {
	test('paying, cancelling the payment, starting a new checkout and cancelling the package at once: no deadlock', async () => {
		const { packages } = await import('~/db/schema')
		const { cancelSubscription, cancelTestPayment, payTestPayment, saveBillingDetails, subscribe } = await import('~/domain/billing/subscription.server')
		const { decodeId } = await import('~/utils/public-id')
		const [pro] = await db.select().from(packages).where(eq(packages.code, 'pro'))
		const retriedBefore = transactionStats.retried
		for (let round = 0; round < ROUNDS; round++) {
			const workshop = await workshopOffering([(await customerWithVehicle()).refs.tyres])
			await saveBillingDetails(workshop.workshopId, { billingEmail: `billing-${round}-${workshop.workshopId.slice(0, 6)}@example.com`, vatNumber: null, wantsEInvoice: false })
			const outcome = await subscribe(workshop.workshopId, pro!.id)
			if (outcome.kind !== 'checkout') throw new Error('expected a checkout')
			const paymentId = decodeId(outcome.url.split('/').pop())!
			const results = await Promise.allSettled([
				payTestPayment(workshop.workshopId, paymentId),
				cancelTestPayment(workshop.workshopId, paymentId),
				subscribe(workshop.workshopId, pro!.id),
				cancelSubscription(workshop.workshopId),
			])
			expectOnlyDomainRefusals(results)
		}
		expect(transactionStats.retried - retriedBefore).toBe(0)
	})
})
