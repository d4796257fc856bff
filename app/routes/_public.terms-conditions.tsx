import { type LoaderFunctionArgs } from 'react-router'
import { ContentPage, contentPageMeta } from '~/components/content-page'
import { loadContentPage } from '~/domain/site/content.server'

// Content page, slug terms-and-conditions (spec §2).
export const loader = ({ request }: LoaderFunctionArgs) => loadContentPage(request, 'terms-and-conditions')

export const meta = contentPageMeta

export default ContentPage
