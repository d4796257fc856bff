import { dictionary, expect, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { completeTyreWorkshopProfile, offerOn, person, register, vehicleAndTyreRequest } from './people'

/**
 * Issue 7 with two people: a new request reaches the workshop's bell, the workshop's offer
 * reaches the customer's bell (with JavaScript within one 15-second poll), opening it leads to
 * the offers and clears the badge, and the two chat, in the dialog or on the chat page.
 */
const account = dictionary('en', 'account')
const common = dictionary('en')

for (const js of javaScriptModes) {
	test(`notifications and chat with JavaScript ${js ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(150_000)
		const token = Math.random().toString(36).slice(2, 8)
		const workshopName = `Bell Garage ${token}`
		const garage = await person(browser, js, baseURL)
		const customer = await person(browser, js, baseURL)

		await register(garage, 'workshop', uniqueEmail('bell-garage'), { first: 'Gert', last: 'Garage', workshop: workshopName })
		await completeTyreWorkshopProfile(garage, js)
		await register(customer, 'customer', uniqueEmail('bell-customer'), { first: 'Kaia', last: 'Kuusk' })
		const requestSlug = await vehicleAndTyreRequest(customer, token, js)

		// The new request is a type-1 notification for the workshop: it opens the request.
		await open(garage, '/dashboard', js)
		const bell = (page: typeof garage) => page.locator('.bell')
		await expect(bell(garage).locator('.bell__badge')).toBeVisible()
		if (js) {
			await bell(garage).click()
			await garage.locator('.bell-panel .notification-item').filter({ hasText: `Tallinn ${token}` }).first().click()
			const dialog = garage.getByRole('dialog', { name: account('notifications.title') })
			await expect(dialog).toBeVisible()
			await dialog.getByRole('link', { name: account('notifications.openRequest') }).click()
		} else {
			await bell(garage).click()
			await expect(garage).toHaveURL(/\/notifications$/)
			await garage.locator('.notification-item').filter({ hasText: `Tallinn ${token}` }).first().click()
			await expect(garage).toHaveURL(/\/notifications\/[\w-]+$/)
			await garage.getByRole('link', { name: account('notifications.openRequest') }).click()
		}
		await expect(garage).toHaveURL(new RegExp(`/customer-request-details/${requestSlug}`))

		// The customer waits on the dashboard with no unread notification.
		await open(customer, '/dashboard', js)
		await expect(bell(customer).locator('.bell__badge')).toHaveCount(0)

		await offerOn(garage, requestSlug, '77', js)

		if (js) {
			// Within one poll, without reloading.
			await expect(bell(customer).locator('.bell__badge')).toHaveText('1', { timeout: 20_000 })
			await bell(customer).click()
			await customer.locator('.bell-panel .notification-item').filter({ hasText: workshopName }).click()
		} else {
			await customer.reload()
			await expect(bell(customer).locator('.bell__badge')).toHaveText('1')
			await bell(customer).click()
			await customer.locator('.notification-item').filter({ hasText: workshopName }).click()
		}
		await expect(customer).toHaveURL(new RegExp(`/compaire-offers/${requestSlug}`))
		await expect(bell(customer).locator('.bell__badge')).toHaveCount(0)

		// The customer writes to the workshop from its offer.
		const chatWithGarage = common('chat.with').replace('{{name}}', workshopName)
		const chatLink = customer.locator('.offer-card').filter({ hasText: workshopName }).getByRole('link', { name: chatWithGarage })
		const chatPath = (await chatLink.getAttribute('href'))!
		await chatLink.click()
		if (js) {
			const dialog = customer.getByRole('dialog', { name: common('chat.title') })
			await expect(dialog).toBeVisible()
			await dialog.getByPlaceholder(common('chat.placeholder')).fill(`Does Tuesday suit? ${token}`)
			await dialog.getByRole('button', { name: common('chat.send') }).click()
			await expect(dialog.locator('.chat-message--mine')).toContainText(`Does Tuesday suit? ${token}`)
			await expect(dialog.getByPlaceholder(common('chat.placeholder'))).toHaveValue('')
		} else {
			await expect(customer).toHaveURL(/\/chat\//)
			await customer.getByLabel(common('chat.messageLabel')).fill(`Does Tuesday suit? ${token}`)
			await customer.getByRole('button', { name: common('chat.send') }).click()
			await expect(customer.locator('.chat-message--mine')).toContainText(`Does Tuesday suit? ${token}`)
			// The chat page leads back to the request it was opened from.
			await expect(customer.getByRole('link', { name: common('chat.backToRequest') })).toHaveAttribute('href', `/request-details/${requestSlug}`)
		}

		// The message is a notice on the workshop's bell; opening it opens the chat with the customer.
		await open(garage, '/dashboard', js)
		const notice = common('notifications.newChatMessage').replace('{{name}}', 'Kaia Kuusk')
		await bell(garage).click()
		await garage.locator('.notification-item').filter({ hasText: notice }).first().click()
		if (!js) {
			await expect(garage).toHaveURL(/\/chat\//)
			// Opened from the bell: back to the workshop's offer on the request the two share.
			await expect(garage.getByRole('link', { name: common('chat.backToRequest') })).toHaveAttribute('href', /^\/workshop-bid-details\//)
		}
		const garageChat = js ? garage.getByRole('dialog', { name: common('chat.title') }) : garage.locator('main')
		await expect(garageChat.locator('.chat-message--theirs')).toContainText(`Does Tuesday suit? ${token}`)
		await garageChat.getByPlaceholder(common('chat.placeholder')).fill('Tuesday at 10 is fine.')
		await garageChat.getByRole('button', { name: common('chat.send') }).click()
		await expect(garageChat.locator('.chat-message--mine')).toContainText('Tuesday at 10 is fine.')
		// Reading the conversation read its notice.
		await open(garage, '/notifications', js)
		await expect(garage.locator('.notification-item--unread').filter({ hasText: notice })).toHaveCount(0)

		// The workshop can also start the chat from the request page.
		await open(garage, `/customer-request-details/${requestSlug}`, js)
		await expect(garage.getByRole('link', { name: common('chat.with').replace('{{name}}', 'Kaia') })).toBeVisible()

		// The customer sees the answer: in the open dialog by the poll, or on reloading the page.
		if (js) {
			await expect(customer.getByRole('dialog').locator('.chat-message--theirs')).toContainText('Tuesday at 10 is fine.', { timeout: 20_000 })
		} else {
			await customer.reload()
			await expect(customer.locator('.chat-message--theirs')).toContainText('Tuesday at 10 is fine.')
			await customer.getByRole('link', { name: common('chat.backToRequest') }).click()
			await expect(customer).toHaveURL(new RegExp(`/request-details/${requestSlug}$`))
		}

		// A stranger is refused the chat page.
		const stranger = await person(browser, js, baseURL)
		await register(stranger, 'customer', uniqueEmail('bell-stranger'), { first: 'Sten', last: 'Stranger' })
		await open(stranger, chatPath, js)
		await expect(stranger).toHaveURL(/\/dashboard$/)
		await expect(stranger.locator('.Toastify__toast, .flash').filter({ hasText: dictionary('en', 'auth')('guard.noPermission') }).first()).toBeVisible()
	})
}

test('a session that ended elsewhere is noticed by the next poll: warning, home', async ({ browser, baseURL }) => {
	const auth = dictionary('en', 'auth')
	const page = await person(browser, true, baseURL)
	await register(page, 'customer', uniqueEmail('poll-expiry'), { first: 'Pille', last: 'Poll' })
	await open(page, '/dashboard?lng=en', true)
	// Logging out in another tab ends the session this tab still shows.
	const other = await page.context().newPage()
	await open(other, '/dashboard?lng=en', true)
	await other.getByRole('button', { name: auth('logout.button') }).click()
	await expect(other).toHaveURL(/\/$/)
	await expect(page.locator('.Toastify__toast').filter({ hasText: auth('api.loginRequired') })).toBeVisible({ timeout: 20_000 })
	await expect(page).toHaveURL(/\/(\?.*)?$/)
	await expect(page.getByRole('link', { name: dictionary('en')('nav.login') }).first()).toBeVisible()
})
