import { dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { addVehicle, person, register } from './people'

/**
 * Issue 32, item 6: a car changes owner. The seller makes a transfer code on the vehicle's page;
 * the buyer who adds the plate is told it is taken and offered the claim; a wrong code is refused
 * at its field; the right one hands over the car with its history. The seller keeps their requests.
 */
const c = dictionary('en', 'customer')

for (const javaScriptEnabled of javaScriptModes) {
	test(`a seller hands over the car with a transfer code, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const token = Math.random().toString(36).slice(2, 7).toUpperCase()
		const plate = `S${token}`
		const seller = await person(browser, javaScriptEnabled, baseURL)
		const buyer = await person(browser, javaScriptEnabled, baseURL)
		await register(seller, 'customer', uniqueEmail('seller'), { first: 'Sass', last: 'Seller' })
		await register(buyer, 'customer', uniqueEmail('buyer'), { first: 'Berit', last: 'Buyer' })
		await addVehicle(seller, plate, javaScriptEnabled)

		// The seller: the vehicle's page, "Selling the car?", a code shown once.
		await seller.locator('.vehicle-tile').filter({ hasText: plate }).getByRole('link').first().click()
		await expect(seller).toHaveURL(/\/vehicle-details\//)
		await seller.getByRole('link', { name: c('transfer.sellLink') }).click()
		await expect(seller).toHaveURL(/\/transfer$/)
		await seller.getByRole('button', { name: c('transfer.make') }).click()
		const shown = seller.getByTestId('transfer-code')
		await expect(shown).toBeVisible()
		const code = (await shown.textContent())!.trim()
		expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/)
		await expect(seller.locator('.transfer-code__link')).toContainText(`/claim-vehicle?code=${code.replace('-', '')}`)

		// The buyer adds the plate: taken, with the way to claim it.
		await open(buyer, '/add-vehicle', javaScriptEnabled)
		await buyer.getByLabel(c('vehicle.registrationNumber')).fill(plate)
		await buyer.getByRole('combobox', { name: c('vehicle.brand') }).selectOption({ label: 'Toyota' })
		await buyer.getByLabel(c('vehicle.model'), { exact: true }).fill('Yaris')
		await buyer.getByLabel(c('vehicle.modelSpecification')).fill('1.5 Hybrid')
		await buyer.getByRole('combobox', { name: c('vehicle.transmission') }).selectOption('automatic')
		await buyer.getByLabel(c('vehicle.mileage'), { exact: true }).fill('43000')
		await buyer.getByLabel(c('vehicle.vehicleYear')).fill('2020')
		await buyer.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expect(buyer.getByText(c('vehicle.registrationTaken'))).toBeVisible()
		await buyer.getByRole('link', { name: c('transfer.takenLink') }).click()
		await expect(buyer).toHaveURL(/\/claim-vehicle\?plate=/)
		await expect(buyer.getByText(c('transfer.claimPlate').replace('{{plate}}', plate))).toBeVisible()

		// A wrong code: refused at its field, nothing changes; then the seller's code, typed as read.
		await buyer.getByLabel(c('transfer.code')).fill('ABCDE-FGH23')
		await buyer.getByRole('button', { name: c('transfer.claim') }).click()
		await expect(buyer.getByText(c('transfer.codeWrong'))).toBeVisible()
		await buyer.getByLabel(c('transfer.code')).fill(code.toLowerCase())
		await buyer.getByRole('button', { name: c('transfer.claim') }).click()
		await expectToast(buyer, c('transfer.claimed'))
		await expect(buyer).toHaveURL(/\/vehicle-details\//)
		await expect(buyer.locator('.plate').first()).toHaveText(plate)
		await expect(buyer.getByRole('region', { name: c('passport.history'), exact: true })).toBeVisible()

		// The code is used: a second claim is refused; the seller's list no longer has the car.
		await open(buyer, `/claim-vehicle?code=${code.replace('-', '')}`, javaScriptEnabled)
		await expect(buyer.getByLabel(c('transfer.code'))).toHaveValue(code.replace('-', ''))
		await buyer.getByRole('button', { name: c('transfer.claim') }).click()
		await expect(buyer.getByText(c('transfer.codeUsed'))).toBeVisible()
		await open(seller, '/my-vehicle', javaScriptEnabled)
		await expect(seller.locator('.vehicle-tile').filter({ hasText: plate })).toHaveCount(0)
	})
}
