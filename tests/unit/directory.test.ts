import { describe, expect, test } from 'vitest'
import { pageWindow } from '~/components/pagination'
import { parseWorkshopListQuery } from '~/domain/directory/list-query'
import { MAX_PAGE, roundToHalf, workshopListParams } from '~/domain/directory/workshops'

const parse = (query: string) => parseWorkshopListQuery(new URLSearchParams(query))

describe('the workshop list query', () => {
	test('reads filters, sort and page from the address', () => {
		expect(parse('q=Kask&city=tallinn&service=tyres&brand=toyota&sort=name&page=3')).toEqual({
			q: 'Kask',
			city: 'tallinn',
			service: 'tyres',
			brand: 'toyota',
			sort: 'name',
			page: 3,
		})
	})

	test('defaults to the best rated first, page 1', () => {
		expect(parse('')).toEqual({ sort: 'rating', page: 1 })
	})

	test('drops what it cannot use instead of failing, like a search box', () => {
		expect(parse('q=%20%20&city=Not a code!&sort=cheapest&page=abc&lng=en&utm_source=x')).toEqual({ sort: 'rating', page: 1 })
		expect(parse('page=0').page).toBe(1)
		expect(parse(`page=${MAX_PAGE + 1}`).page).toBe(1)
		expect(parse('city=TALLINN').city).toBe('tallinn')
		expect(parse(`q=${'x'.repeat(101)}`).q).toBeUndefined()
	})

	test('writes back a clean, shareable query without the defaults', () => {
		expect(workshopListParams({ q: 'kask', city: 'tartu', sort: 'rating', page: 1 }).toString()).toBe('q=kask&city=tartu')
		expect(workshopListParams({ service: 'tyres', sort: 'reviews', page: 2 }).toString()).toBe('service=tyres&sort=reviews&page=2')
	})
})

describe('stars and pages', () => {
	test('a rating is drawn to the nearest half star', () => {
		expect(roundToHalf(4.24)).toBe(4)
		expect(roundToHalf(4.25)).toBe(4.5)
		expect(roundToHalf(4.74)).toBe(4.5)
		expect(roundToHalf(4.75)).toBe(5)
		expect(roundToHalf(0)).toBe(0)
		expect(roundToHalf(7)).toBe(5)
	})

	test('the pagination offers the ends and the neighbours of the current page', () => {
		expect(pageWindow(1, 1)).toEqual([1])
		expect(pageWindow(1, 5)).toEqual([1, 2, 3, 'gap', 5])
		expect(pageWindow(5, 10)).toEqual([1, 'gap', 3, 4, 5, 6, 7, 'gap', 10])
		expect(pageWindow(10, 10)).toEqual([1, 'gap', 8, 9, 10])
		expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4])
	})
})
