# Writes the TS-VIS fixture beside it with the real TS-VIS writer:
# tsvis 0.4.2 (installed --no-deps) with numpy 1.26.4 and protobuf 3.20.3.
# The files were moved here from logs/ unchanged.
import numpy as np
from tsvis.logger.summary_writer import SummaryWriter

w = SummaryWriter('logs/')
w.add_scalar('loss', 0.5, step=1)
pts = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
w.add_embedding('emb', pts, label=np.array([0, 1, 1, 2]), step=3)
w.add_embedding('words', pts * 2, label=np.array(['cat', 'dog', 'é', 'x']), step=4)
w.add_embedding_sample('emb', np.zeros((4, 2, 2), dtype=np.uint8), sample_type='image')
w.add_exception('grad', np.array([[1.0, np.nan], [np.inf, -2.0]]), step=5)
w.add_exception('grad', np.array([[3.0, 4.0], [5.0, 6.0]]), step=6)
w.close()
