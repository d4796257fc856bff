// The demo page's only script besides widgets.js (the portal's CSP allows no inline script).
// It shows the mount API: the details widget is mounted for the best-reviewed workshop once known.
const element = document.querySelector('#demo-details')
fetch('/admin/api/workshop-list?lng=en&sort=reviews')
	.then((response) => response.json())
	.then((body) => {
		const first = body.data.items[0]
		const mount = () => window.WorkshopWidgets.mount(element, { widget: 'details', workshopId: first.id })
		if (window.WorkshopWidgets) mount()
		else document.querySelector('script[src$="widgets.js"]').addEventListener('load', mount)
	})
	.catch(() => {
		element.textContent = 'The demo could not reach the portal.'
	})
