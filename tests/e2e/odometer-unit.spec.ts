import { dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { person, register } from './people'

/**
 * Issue 32, item 2: a vehicle's odometer is in km unless its owner says miles; its form takes the
 * reading in that unit and its page and passport show it back in it. Bad readings are refused at
 * their field in the reader's language.
 */
const c = dictionary('en', 'customer')
const common = dictionary('en')
const etCommon = dictionary('et')
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)

for (const javaScriptEnabled of javaScriptModes) {
	test(`the vehicle form in km and in miles, and the passport in the vehicle's unit, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(150_000)
		const token = Math.random().toString(36).slice(2, 7).toUpperCase()
		const owner = await person(browser, javaScriptEnabled, baseURL)
		await register(owner, 'customer', uniqueEmail('odometer'), { first: 'Olev', last: 'Odomeeter' })

		const fill = async (plate: string, mileage: string) => {
			await owner.getByLabel(c('vehicle.registrationNumber')).fill(plate)
			await owner.getByRole('combobox', { name: c('vehicle.brand') }).selectOption({ label: 'Toyota' })
			await owner.getByLabel(c('vehicle.model'), { exact: true }).fill('Corolla')
			await owner.getByLabel(c('vehicle.modelSpecification')).fill('1.8 Hybrid')
			await owner.getByRole('combobox', { name: c('vehicle.transmission') }).selectOption('automatic')
			await owner.getByLabel(c('vehicle.vehicleYear')).fill('2019')
			await owner.getByLabel(c('vehicle.mileage'), { exact: true }).fill(mileage)
		}

		// A new vehicle's odometer is in km; no form mentions miles.
		await open(owner, '/add-vehicle', javaScriptEnabled)
		const unit = owner.getByRole('combobox', { name: c('vehicle.odometerUnit') })
		await expect(unit).toHaveValue('km')
		await expect(owner.locator('label', { hasText: c('vehicle.mileage') })).toHaveText(c('vehicle.mileage'))
		await expect(owner.locator('form').filter({ has: unit })).not.toContainText(/\(miles\)/)
		await fill(`K${token}`, '-5')
		await owner.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expect(owner.getByText(common('validation.readingNegative'))).toBeVisible()
		await owner.getByLabel(c('vehicle.mileage'), { exact: true }).fill('1000000')
		await owner.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expect(owner.getByText(common('validation.readingTooHigh'))).toBeVisible()
		await expect(owner.getByLabel(c('vehicle.model'), { exact: true })).toHaveValue('Corolla')
		await owner.getByLabel(c('vehicle.mileage'), { exact: true }).fill('88000')
		await owner.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expectToast(owner, c('vehicle.added'))
		await expect(owner.locator('.vehicle-tile').filter({ hasText: `K${token}` })).toContainText('88,000 km')

		// One in miles: typed in miles, shown in miles, and its edit form gives back what was typed.
		await open(owner, '/add-vehicle', javaScriptEnabled)
		await fill(`M${token}`, '61514')
		await owner.getByRole('combobox', { name: c('vehicle.odometerUnit') }).selectOption('mi')
		await owner.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expectToast(owner, c('vehicle.added'))
		const tile = owner.locator('.vehicle-tile').filter({ hasText: `M${token}` })
		await expect(tile).toContainText('61,514 miles')
		await tile.getByRole('link').first().click()
		await expect(owner).toHaveURL(/\/vehicle-details\//)
		const vehiclePath = new URL(owner.url()).pathname
		await expect(owner.locator('.facts__row').filter({ hasText: c('vehicle.mileage') })).toContainText('61,514 miles')

		// The passport takes work done elsewhere in miles and shows it in miles; a reading above today's names it in miles.
		await owner.locator('summary', { hasText: c('passport.addElsewhere') }).click()
		await owner.getByLabel(c('passport.mileage').replace('{{unit}}', 'miles')).fill('70000')
		await owner.getByLabel(c('passport.performedOn')).fill(daysAgo(30))
		await owner.getByLabel(c('passport.description')).fill(`Oil ${token}`)
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(c('passport.mileageAbove.mi').replace('{{mileage, number}}', '61,514'))).toBeVisible()
		await owner.getByLabel(c('passport.mileage').replace('{{unit}}', 'miles')).fill('60000')
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expectToast(owner, c('passport.recordAdded'))
		const entry = owner.getByRole('region', { name: c('passport.history'), exact: true }).locator('li').filter({ hasText: `Oil ${token}` })
		await expect(entry).toContainText('60,000 miles')

		await open(owner, `${vehiclePath.replace('/vehicle-details/', '/edit-vehicle/')}`, javaScriptEnabled)
		await expect(owner.getByLabel(c('vehicle.mileage'), { exact: true })).toHaveValue('61514')
		await expect(owner.getByRole('combobox', { name: c('vehicle.odometerUnit') })).toHaveValue('mi')

		// In Estonian: the page says km for a km car, never "miili".
		await open(owner, `/my-vehicle?lng=et`, javaScriptEnabled)
		await expect(owner.locator('.vehicle-tile').filter({ hasText: `K${token}` })).toContainText(etCommon('distance.km').replace('{{value, number}}', '88\u00a0000'))
		await expect(owner.locator('.vehicle-tile').filter({ hasText: `K${token}` })).not.toContainText('miil')
		await open(owner, `/my-vehicle?lng=en`, javaScriptEnabled)
	})
}
