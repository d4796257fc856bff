import { describe, expect, test } from 'vitest'
import { adsInLanguage } from '~/domain/site/ads'
import { adsAllowed } from '~/utils/ad-places'
import * as adminLayout from '~/routes/_app.admin'
import * as signedIn from '~/routes/_app'
import * as publicFrame from '~/routes/_public'
import * as settings from '~/routes/_app.settings'
import * as profile from '~/routes/_app.profile'
import * as workshopProfile from '~/routes/_app.workshop-profile'
import * as subscription from '~/routes/_app.subscription'
import * as testPayment from '~/routes/_app.subscription_.test-payment.$slug'
import * as requestForm from '~/routes/_app.new-service-register'
import * as offerBuilder from '~/routes/_app.customer-request-details.$slug'
import * as selection from '~/routes/_app.compaire-offers.$slug'
import * as reviewForm from '~/routes/_app.leave-feedback.$slug'
import * as login from '~/routes/_public.login'
import * as register from '~/routes/_public.register'
import * as dashboard from '~/routes/_app.dashboard'
import * as workshopList from '~/routes/_public.workshop-list'
import * as home from '~/routes/_public._index'

// What React Router's useMatches() gives the layouts: root first, the page last.
const matches = (...modules: object[]) => [{ handle: undefined }, ...modules.map((module) => ({ handle: 'handle' in module ? module.handle : undefined }))]

describe('where ads may appear (issue 32)', () => {
	test('the deepest route that says anything decides; where none does, there are none', () => {
		expect(adsAllowed([])).toBe(false)
		expect(adsAllowed([{ handle: undefined }, { handle: {} }])).toBe(false)
		expect(adsAllowed([{ handle: { ads: true } }, { handle: {} }])).toBe(true)
		expect(adsAllowed([{ handle: { ads: true } }, { handle: { ads: false } }, { handle: {} }])).toBe(false)
		expect(adsAllowed([{ handle: { ads: false } }, { handle: { ads: true } }])).toBe(true)
		expect(adsAllowed([{ handle: { ads: 'no' } }, { handle: null }])).toBe(false)
	})

	test('no ads on the administration, payment, settings, sign-in or the forms of the four steps', () => {
		for (const [name, page] of Object.entries({ settings, profile, workshopProfile, subscription, testPayment, requestForm, offerBuilder, selection, reviewForm })) {
			expect(adsAllowed(matches(signedIn, page)), name).toBe(false)
		}
		// Every administration page, through its layout.
		expect(adsAllowed(matches(signedIn, adminLayout, {}))).toBe(false)
		for (const [name, page] of Object.entries({ login, register })) expect(adsAllowed(matches(publicFrame, page)), name).toBe(false)
	})

	test('ads on the public pages and the signed-in overview', () => {
		expect(adsAllowed(matches(publicFrame, home))).toBe(true)
		expect(adsAllowed(matches(publicFrame, workshopList))).toBe(true)
		expect(adsAllowed(matches(signedIn, dashboard))).toBe(true)
	})
})

describe('ads in the reader’s language (issue 32)', () => {
	const ads = [
		{ id: 'a', language: 'et' as const },
		{ id: 'b', language: 'en' as const },
		{ id: 'c', language: 'et' as const },
	]
	test('a reader gets only the ads of their language, in order; an ad without it is not shown', () => {
		expect(adsInLanguage(ads, 'et').map((ad) => ad.id)).toEqual(['a', 'c'])
		expect(adsInLanguage(ads, 'en').map((ad) => ad.id)).toEqual(['b'])
		expect(adsInLanguage(ads, 'ru')).toEqual([])
	})
})
