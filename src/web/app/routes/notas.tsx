import { NotasPage } from '../../features/notas/components/notas-page';

export default NotasPage;
