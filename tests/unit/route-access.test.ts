import { describe, expect, test } from 'vitest'
import { rolesFor, ruleFor } from '~/utils/route-access'
import { bothRoles as both, customerOnly, publicRoutes as open, workshopOnly } from '#tests/support/spec-routes'

describe('the route table of spec §2', () => {
	test.each(both)('%s is for every signed-in role', (path) => {
		expect(rolesFor(path)).toEqual(['customer', 'workshop', 'admin'])
	})
	test.each(workshopOnly)('%s is for workshops only', (path) => {
		expect(rolesFor(path)).toEqual(['workshop'])
	})
	test.each(customerOnly)('%s is for customers only', (path) => {
		expect(rolesFor(path)).toEqual(['customer'])
	})
	test.each(open)('%s is public', (path) => {
		expect(rolesFor(path)).toBeNull()
	})
	test('a trailing slash changes nothing, and a path without its id is guarded like its pages', () => {
		expect(rolesFor('/my-vehicle/')).toEqual(['customer'])
		expect(rolesFor('/edit-vehicle/')).toEqual(['customer'])
		expect(rolesFor('/workshop-bid-details')).toEqual(['workshop'])
		expect(rolesFor('/admin/users')).toEqual(['admin'])
		expect(rolesFor('/admin/api/login')).toBeNull()
	})
	test("a vehicle's pages are not found for another role (issue 20); other pages send it to its dashboard", () => {
		expect(ruleFor('/vehicle-details/abc')?.othersNotFound).toBe(true)
		expect(ruleFor('/edit-vehicle/abc')?.othersNotFound).toBe(true)
		expect(ruleFor('/request-details/abc')?.othersNotFound).toBeUndefined()
		expect(ruleFor('/my-vehicle')?.othersNotFound).toBeUndefined()
	})
	test("an invoice's e-invoice is its workshop's and the administrators'; anyone else's 404 (decision 0110)", () => {
		expect(rolesFor('/subscription/invoices/1000.xml')).toEqual(['workshop', 'admin'])
		expect(ruleFor('/subscription/invoices/1000.xml')?.othersNotFound).toBe(true)
		expect(rolesFor('/subscription/test-payment/abc')).toEqual(['workshop'])
	})
})
