import { dictionary, expect, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { addVehicle, completeTyreWorkshopProfile, register } from './people'

const en = dictionary('en', 'account')
const enCustomer = dictionary('en', 'customer')

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`first steps with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a new workshop sees what is missing from its profile and what it unlocks, until it is done', async ({ page }) => {
			test.setTimeout(90_000)
			await register(page, 'workshop', uniqueEmail('alustav'), { first: 'Urmas', last: 'Uus', workshop: 'Uus Rehv' })
			await open(page, '/dashboard?lng=en', javaScriptEnabled)
			const checklist = page.getByRole('region', { name: en('dashboard.onboarding.workshop.title') })
			await expect(checklist).toContainText(en('dashboard.onboarding.workshop.progress').replace('{{done}}', '0').replace('{{total}}', '7'))
			await expect(checklist).toContainText(en('dashboard.onboarding.workshop.notListed'))
			await expect(checklist).toContainText(en('dashboard.onboarding.workshop.notReceiving'))
			await checklist.getByRole('link', { name: en('dashboard.onboarding.workshop.steps.services') }).click()
			await expect(page).toHaveURL(/\/workshop-profile#profile-offer$/)

			await completeTyreWorkshopProfile(page, javaScriptEnabled)
			await open(page, '/dashboard?lng=en', javaScriptEnabled)
			await expect(checklist).toContainText(en('dashboard.onboarding.workshop.listed'))
			await expect(checklist).toContainText(en('dashboard.onboarding.workshop.receives'))
			await expect(checklist).not.toContainText(en('dashboard.onboarding.workshop.notListed'))
			await expect(checklist).not.toContainText(en('dashboard.onboarding.workshop.notReceiving'))
			// Services, address and brands are done: no longer links; the logo still is.
			await expect(checklist.getByRole('link', { name: en('dashboard.onboarding.workshop.steps.services') })).toHaveCount(0)
			await expect(checklist.getByRole('link', { name: en('dashboard.onboarding.workshop.steps.logo') })).toBeVisible()
			await expect(checklist).toContainText(en('dashboard.onboarding.workshop.progress').replace('{{done}}', '3').replace('{{total}}', '7'))
		})

		test('a new customer is led to add a car and then to a first request', async ({ page }) => {
			await register(page, 'customer', uniqueEmail('alustaja'), { first: 'Kaja', last: 'Kask' })
			await open(page, '/dashboard?lng=en', javaScriptEnabled)
			const steps = page.getByRole('region', { name: en('dashboard.onboarding.customer.title') })
			await expect(steps.getByRole('heading', { level: 3 })).toHaveText([
				en('dashboard.onboarding.customer.vehicleTitle'),
				en('dashboard.onboarding.customer.requestTitle'),
				en('dashboard.onboarding.customer.chooseTitle'),
			])
			await steps.getByRole('link', { name: en('dashboard.onboarding.customer.vehicleButton') }).click()
			await expect(page).toHaveURL(/\/add-vehicle\?returnTo=/)
			await addVehicle(page, `K${Date.now().toString(36).slice(-5).toUpperCase()}`, javaScriptEnabled, page.url().replace(/^https?:\/\/[^/]+/, ''))
			// The vehicle added, the request form is next.
			await expect(page).toHaveURL(/\/new-service-register/)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(enCustomer('request.newTitle'))

			await open(page, '/dashboard?lng=en', javaScriptEnabled)
			await expect(steps.getByRole('link', { name: en('dashboard.onboarding.customer.vehicleButton') })).toHaveCount(0)
			await expect(steps.getByRole('link', { name: en('dashboard.onboarding.customer.requestButton') })).toBeVisible()
		})
	})
}
