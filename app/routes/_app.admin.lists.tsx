import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { SortOrderAndActive } from '~/components/admin-fields'
import { Field, FormAlert, FormSecurity, SelectField } from '~/components/forms'
import { FilterTabs } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { cityItemSchema, referenceListNames, ReferenceItemSchema, type AdminReferenceList, type CityItemInput } from '~/domain/admin/admin'
import { counties } from '~/domain/directory/counties'
import { listReferenceItems, saveReferenceItem, type AdminReferenceItem } from '~/domain/admin/catalog.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { FieldError } from '~/utils/errors'

const listOf = (value: string | null): AdminReferenceList =>
	(referenceListNames as readonly string[]).includes(value ?? '') ? (value as AdminReferenceList) : 'services'

/** A list's form: a city's names its county too (issue 35), required for a new one. */
const schemaOf = (list: AdminReferenceList, isNew: boolean) => (list === 'cities' ? cityItemSchema(isNew) : ReferenceItemSchema)

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const list = listOf(new URL(request.url).searchParams.get('list'))
	const items = await listReferenceItems(list)
	return { meta: { title: t('lists.title') }, list, items: items.map((item) => ({ ...item, slug: encodeId(item.id) })) }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const list = listOf(String(formData.get('list') ?? ''))
	const rawItem = String(formData.get('item') ?? '')
	const itemId = rawItem === 'new' ? null : decodeId(rawItem)
	if (rawItem !== 'new' && !itemId) throw new Response('Not found', { status: 404 })
	const formId = rawItem
	const submission = parseWithZod(formData, { schema: schemaOf(list, itemId === null) })
	if (submission.status !== 'success') return data({ formId, result: submission.reply() }, { status: 400 })
	try {
		await or404(saveReferenceItem(admin.id, list, itemId, submission.value))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission, field: error instanceof FieldError ? error.field : 'code', data: { formId } })
	}
	return redirectWithToast(`/admin/lists?list=${list}`, { type: 'success', key: 'admin:lists.saved' }, { request })
}

export const meta = routeMeta<typeof loader>()

function ItemForm({ list, item }: { list: AdminReferenceList; item: (AdminReferenceItem & { slug: string }) | null }) {
	const { t } = useTranslation('admin')
	const actionData = useActionData<typeof action>()
	const formId = item?.slug ?? 'new'
	// Typed as a city's form, the widest: the other lists' forms have no county field.
	const [form, fields] = useForm<Record<keyof CityItemInput, string>, CityItemInput>({
		id: `item-${list}-${formId}`,
		lastResult: actionData?.formId === formId ? actionData.result : undefined,
		defaultValue: item
			? {
					code: item.code,
					nameEt: item.nameEt,
					nameEn: item.nameEn,
					nameRu: item.nameRu,
					sortOrder: String(item.sortOrder),
					active: item.active ? 'on' : undefined,
					county: item.county ?? undefined,
				}
			: { sortOrder: '0', active: 'on' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaOf(list, !item) }),
		shouldRevalidate: 'onInput',
	})
	return (
		<li className={item ? 'admin-list-item' : 'admin-list-item admin-list-item--new'}>
			<Form method="post" className="admin-row-form" {...getFormProps(form)}>
				<FormSecurity />
				<input type="hidden" name="list" value={list} />
				<input type="hidden" name="item" value={formId} />
				<FormAlert errors={form.errors} />
				<Field label={t('lists.code')} required inputProps={getInputProps(fields.code, { type: 'text' })} errors={fields.code.errors} />
				{(['nameEt', 'nameEn', 'nameRu'] as const).map((name) => (
					<Field key={name} label={t(`packages.${name}`)} required inputProps={getInputProps(fields[name], { type: 'text' })} errors={fields[name].errors} />
				))}
				{list === 'cities' ? (
					<SelectField
						label={t('lists.county')}
						help={t('lists.countyHelp')}
						required={!item?.county}
						// A city saved before counties shows "—" until one is chosen; a new one must choose.
						placeholder={item?.county ? undefined : item ? '—' : t('lists.chooseCounty')}
						options={counties.map((value) => ({ value, label: t(`common:county.${value}`) }))}
						selectProps={getSelectProps(fields.county)}
						errors={fields.county.errors}
					/>
				) : null}
				<SortOrderAndActive sortOrder={fields.sortOrder} active={fields.active} activeLabel={t('lists.active')} />
				<button type="submit" className={item ? 'button button--ghost' : 'button button--primary'}>
					{t(item ? 'lists.save' : 'lists.add')}
				</button>
			</Form>
		</li>
	)
}

export default function AdminListsPage() {
	const { t } = useTranslation('admin')
	const { list, items } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('lists.title')} subtitle={t('lists.subtitle')} />
			<FilterTabs
				label={t('lists.label')}
				tabs={referenceListNames.map((name) => ({ to: `?list=${name}`, label: t(`lists.names.${name}`), current: name === list }))}
			/>
			<h2>{t('lists.addTitle')}</h2>
			<ul className="admin-list">
				<ItemForm key={`${list}-new`} list={list} item={null} />
			</ul>
			<h2>{t(`lists.names.${list}`)}</h2>
			<ul className="admin-list">
				{items.map((item) => (
					<ItemForm key={item.id} list={list} item={item} />
				))}
			</ul>
		</>
	)
}
