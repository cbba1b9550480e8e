import { NotasPage } from '#web/features/notas/components/notas-page';

export default NotasPage;
