/** Demo content: believable, Spanish, and clearly fictional. */
export const DEMO_AGENDA: { dayOffset: number; hora: string; descripcion: string; lugar: string }[] = [
  {
    dayOffset: 0,
    hora: '07:30',
    descripcion: 'Desayuno con líderes comunitarios de la parroquia',
    lugar: 'Casa comunal de Cristo de Aranza',
  },
  {
    dayOffset: 0,
    hora: '09:00',
    descripcion: 'Recorrido casa por casa y encuentro con vecinos',
    lugar: 'Sector 18 de Octubre, Coquivacoa',
  },
  {
    dayOffset: 0,
    hora: '11:30',
    descripcion: 'Rueda de prensa: plan de agua potable para el Zulia',
    lugar: 'Hotel del Lago, Maracaibo',
  },
  {
    dayOffset: 0,
    hora: '15:00',
    descripcion: 'Asamblea con productores agropecuarios',
    lugar: 'Plaza Bolívar de Machiques de Perijá',
  },
  {
    dayOffset: 0,
    hora: '18:30',
    descripcion: 'Caravana de cierre de jornada',
    lugar: 'Av. 5 de Julio hasta la Basílica de Chiquinquirá',
  },
  { dayOffset: 1, hora: '08:00', descripcion: 'Visita al mercado Las Pulgas', lugar: 'Centro de Maracaibo' },
  {
    dayOffset: 1,
    hora: '10:30',
    descripcion: 'Encuentro con estudiantes universitarios',
    lugar: 'Aula Magna, Ciudad Universitaria',
  },
  {
    dayOffset: 1,
    hora: '16:00',
    descripcion: 'Reunión con pescadores del lago',
    lugar: 'Muelle de Santa Rosa de Agua',
  },
  { dayOffset: 2, hora: '09:00', descripcion: 'Jornada de salud comunitaria', lugar: 'Cabimas, sector Ambrosio' },
  { dayOffset: 2, hora: '17:00', descripcion: 'Concierto de gaitas por el Zulia', lugar: 'Vereda del Lago' },
  {
    dayOffset: 3,
    hora: '10:00',
    descripcion: 'Foro sobre el sistema eléctrico',
    lugar: 'Cámara de Comercio de Maracaibo',
  },
];

export const DEMO_NOTAS: { title: string; html: string }[] = [
  {
    title: 'Arrancamos la campaña con la gente',
    html: '<h2>Un comienzo desde las comunidades</h2><p>Hoy comenzamos formalmente nuestra campaña con un recorrido por las parroquias de Maracaibo. <strong>Escuchar primero</strong> es nuestro compromiso.</p><ul><li>Visitamos 12 comunidades</li><li>Recogimos más de 300 propuestas</li><li>Sumamos 150 nuevos voluntarios</li></ul>',
  },
  {
    title: 'Plan de agua potable: cinco compromisos',
    html: '<h2>El agua es la primera prioridad</h2><p>Presentamos un plan concreto para que el agua llegue a cada hogar del Zulia.</p><ol><li>Rehabilitar las plantas potabilizadoras.</li><li>Reparar las tuberías principales.</li><li>Camiones cisterna con horario público.</li><li>Medición abierta del servicio por sector.</li><li>Mesas técnicas de agua en cada parroquia.</li></ol><p>Lee el documento completo en <a href="https://example.org/plan-agua">nuestro plan de gobierno</a>.</p>',
  },
  {
    title: 'Caravana por la Circunvalación 2',
    html: '<p>Miles de zulianos nos acompañaron en la caravana de este sábado.</p><figure><img src="/img/caravana.svg" alt="Ilustración de la caravana con banderas" width="640" height="320"><figcaption>La caravana a su paso por la Circunvalación 2.</figcaption></figure><p><em>Gracias a cada voluntario que lo hizo posible.</em></p>',
  },
  {
    title: 'Encuentro con productores de Machiques',
    html: '<h3>El campo zuliano tiene futuro</h3><p>Conversamos con ganaderos y agricultores sobre vialidad rural, seguridad y acceso a insumos.</p><blockquote>«Sin carreteras no hay producción», nos dijo un productor de la zona.</blockquote>',
  },
  {
    title: 'Cómo ser testigo de mesa',
    html: '<h2>Defendamos cada voto</h2><p>Si quieres ser testigo, estos son los pasos:</p><ol><li>Inscríbete con tu coordinador de UBCH.</li><li>Asiste a la capacitación de tu parroquia.</li><li>Lleva tu cédula y llega a las 5:00 AM.</li></ol><p>Escríbenos a <a href="mailto:testigos@example.org">testigos@example.org</a>.</p>',
  },
  {
    title: 'Propuestas para el sistema eléctrico',
    html: '<p>Los cortes de luz afectan a todos. Proponemos un plan de mantenimiento preventivo y una <strong>línea de atención</strong> que responda en menos de 24 horas.</p><h3>Lo primero</h3><ul><li>Inventario de transformadores dañados.</li><li>Cuadrillas por municipio.</li></ul>',
  },
  {
    title: 'Jornada de salud en Cabimas',
    html: '<p>Más de 400 personas recibieron atención médica gratuita en la jornada de salud comunitaria.</p><p>Próxima jornada: <strong>Lagunillas</strong>.</p>',
  },
  {
    title: 'Los jóvenes toman la palabra',
    html: '<h2>Foro universitario</h2><p>Estudiantes de cinco universidades presentaron sus ideas sobre empleo, transporte y cultura.</p><ul><li>Pasaje estudiantil</li><li>Pasantías en empresas zulianas</li><li>Espacios culturales abiertos</li></ul>',
  },
  {
    title: 'Pesca artesanal: compromisos con el lago',
    html: '<p>Nos reunimos con pescadores de Santa Rosa de Agua. Acordamos un plan de <em>saneamiento del lago</em> y apoyo a las cooperativas.</p>',
  },
  {
    title: 'La gaita también hace campaña',
    html: '<p>Agrupaciones gaiteras se sumaron con canciones propias. ¡Nos vemos en la Vereda del Lago!</p><p><a href="https://example.org/gaitas">Escucha las gaitas</a></p>',
  },
  {
    title: 'Seguridad ciudadana con participación',
    html: '<h2>Más prevención, más comunidad</h2><p>Proponemos consejos de seguridad por parroquia y alumbrado en todas las paradas de transporte.</p>',
  },
  {
    title: 'Gracias, Zulia',
    html: '<p>Cada día de esta campaña ha sido posible gracias a ustedes. <strong>Seguimos.</strong></p>',
  },
];
