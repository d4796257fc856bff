import { describe, expect, test } from 'vitest'
import { rolesFor } from '~/utils/route-access'
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
})
