import { describe, expect, test } from 'vitest'
import { extraWorkStatusEnum, offerStatusEnum, requestStatusEnum } from '~/db/schema'
import {
	canExtraWork,
	canOffer,
	canReopen,
	extraWorkMoves,
	extraWorkStatuses,
	canRequest,
	initialStatus,
	isRequestFinished,
	isRequestOpen,
	offerMoves,
	offerStatuses,
	requestAfter,
	requestMoves,
	requestStatuses,
	requestStatusInfo,
	statusLists,
	type RequestMove,
	type RequestStatus,
} from '~/domain/service-flow/status'

describe('the status model', () => {
	test('the database enums are the model’s statuses', () => {
		expect(requestStatusEnum.enumValues).toEqual([...requestStatuses])
		expect(offerStatusEnum.enumValues).toEqual([...offerStatuses])
		expect(extraWorkStatusEnum.enumValues).toEqual([...extraWorkStatuses])
	})

	test('extra work: asked on a chosen offer, answered once by the customer or withdrawn by the workshop; only approved counts', () => {
		expect(initialStatus.extraWork).toBe('waiting')
		for (const move of Object.values(extraWorkMoves)) {
			for (const from of move.from) expect(extraWorkStatuses).toContain(from)
			expect(extraWorkStatuses).toContain(move.to)
		}
		expect(canOffer('askExtraWork', 'selected', 'workshop')).toBe(true)
		expect(canOffer('askExtraWork', 'pending')).toBe(false)
		expect(canOffer('askExtraWork', 'job_completed')).toBe(false)
		expect(canRequest('answerExtraWork', 'in_progress', 'customer')).toBe(true)
		expect(canRequest('answerExtraWork', 'completed')).toBe(false)
		expect(canExtraWork('approve', 'waiting', 'customer')).toBe(true)
		expect(canExtraWork('approve', 'waiting', 'workshop')).toBe(false)
		expect(canExtraWork('withdraw', 'waiting', 'workshop')).toBe(true)
		for (const answered of ['approved', 'declined', 'withdrawn'] as const) {
			for (const move of ['approve', 'decline', 'withdraw'] as const) expect(canExtraWork(move, answered)).toBe(false)
		}
		expect(statusLists.openExtraWork).toEqual(['waiting'])
		expect(statusLists.bindingExtraWork).toEqual(['approved'])
	})

	test('the final bill: above the binding total it waits for the customer, who confirms it or disputes it for an administrator to settle', () => {
		expect(offerMoves.proposeBill).toMatchObject({ from: ['selected'], to: 'bill_proposed', by: 'workshop' })
		expect(canOffer('confirmBill', 'bill_proposed', 'customer')).toBe(true)
		expect(canOffer('confirmBill', 'bill_proposed', 'workshop')).toBe(false)
		expect(canOffer('disputeBill', 'bill_proposed', 'customer')).toBe(true)
		expect(canOffer('confirmBill', 'bill_disputed')).toBe(false)
		expect(canOffer('settleBill', 'bill_disputed', 'admin')).toBe(true)
		expect(canOffer('settleBill', 'bill_disputed', 'customer')).toBe(false)
		// Each way ends where completing the job at once does; nothing else moves from a bill.
		for (const move of ['confirmBill', 'settleBill'] as const) expect(offerMoves[move].to).toBe(offerMoves.completeJob.to)
		for (const bill of ['bill_proposed', 'bill_disputed'] as const) {
			for (const move of ['completeJob', 'proposeBill', 'askExtraWork', 'edit', 'withdraw', 'select'] as const) expect(canOffer(move, bill), `${move} from ${bill}`).toBe(false)
		}
	})

	test('every move starts and ends at known statuses', () => {
		for (const move of Object.values(requestMoves)) {
			for (const from of move.from) expect(requestStatuses).toContain(from)
			if (move.to) expect(requestStatuses).toContain(move.to)
		}
		for (const move of Object.values(offerMoves)) {
			for (const from of move.from) expect(offerStatuses).toContain(from)
			if (move.to) expect(offerStatuses).toContain(move.to)
		}
	})

	test('every request status is reachable from the initial one, and the happy path is the spec’s', () => {
		const reached = new Set<RequestStatus>([initialStatus.request])
		for (let changed = true; changed; ) {
			changed = false
			for (const move of Object.keys(requestMoves) as RequestMove[]) {
				for (const status of [...reached]) {
					if (!canRequest(move, status)) continue
					const next = requestAfter(move, status)
					if (reached.has(next)) continue
					reached.add(next)
					changed = true
				}
			}
		}
		expect([...reached].sort()).toEqual([...requestStatuses].sort())

		let status: RequestStatus = initialStatus.request
		const path: RequestStatus[] = [status]
		for (const move of ['receiveOffer', 'selectOffer', 'complete'] as const) {
			expect(canRequest(move, status), `${move} from ${status}`).toBe(true)
			status = requestAfter(move, status)
			path.push(status)
		}
		expect(path).toEqual(['pending', 'offer', 'in_progress', 'completed'])
	})

	test('a finished request changes no more (but an expired one is reopened, once), and only a finished job is reviewed', () => {
		for (const status of requestStatuses.filter(isRequestFinished)) {
			for (const [name, move] of Object.entries(requestMoves)) {
				if (name === 'reopen') continue
				if (move.from.includes(status as never)) expect(move.to, `${name} from ${status}`).toBeNull()
			}
		}
		expect(requestStatuses.filter((status) => canRequest('reopen', status))).toEqual(['expired'])
		expect([canReopen('expired', 0), canReopen('expired', 1), canReopen('offer', 0)]).toEqual([true, false, false])
		expect(requestStatuses.filter((status) => canRequest('review', status))).toEqual(['completed'])
	})

	test('who may do what', () => {
		expect(canRequest('cancel', 'pending', 'customer')).toBe(true)
		expect(canRequest('cancel', 'pending', 'workshop')).toBe(false)
		expect(canRequest('cancel', 'in_progress')).toBe(false)
		expect(canRequest('selectOffer', 'offer', 'customer')).toBe(true)
		expect(canRequest('selectOffer', 'pending')).toBe(false)
		expect(canOffer('edit', 'pending', 'workshop')).toBe(true)
		expect(canOffer('edit', 'selected')).toBe(false)
		expect(canOffer('completeJob', 'selected', 'workshop')).toBe(true)
		expect(canOffer('completeJob', 'pending')).toBe(false)
	})

	test('the lists the queries use follow the tables', () => {
		// Written out: a change to the tables that moves these lists must be a conscious one.
		expect([...statusLists.openRequests]).toEqual(['pending', 'offer'])
		expect(requestStatuses.filter(isRequestOpen)).toEqual(['pending', 'offer'])
		expect([...statusLists.activeRequests]).toEqual(['pending', 'offer', 'in_progress'])
		expect([...statusLists.finishedRequests]).toEqual(['completed', 'cancelled', 'expired'])
		expect(statusLists.undecidedOffers).toEqual(['pending'])
		expect([...statusLists.countedOffers]).toEqual(['pending', 'selected', 'job_completed', 'bill_proposed', 'bill_disputed'])
		expect([...statusLists.jobsUnderWay]).toEqual(['selected', 'bill_proposed', 'bill_disputed'])
		expect(Object.keys(requestStatusInfo)).toEqual([...requestStatuses])
	})
})
