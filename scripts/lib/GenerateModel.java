import java.nio.file.Path;

import io.tokenclock.fixtures.engine.GeneratedModel;
import io.tokenclock.fixtures.engine.ModelShape;

/**
 * Writes the GGUF model tokenclock generates (docs/ENGINE.md, "The model") to a file, for a server other than the
 * embedded engine: {@code java -cp tokenclock.jar scripts/lib/GenerateModel.java 256x4 model.gguf}. A third argument
 * sets the model's training context ({@code llama.context_length}, 4096 by default), which llama.cpp's server caps a
 * slot at: {@code ... 256x4 model-256x4-ctx8192.gguf 8192} wrote results/sessions/llama-server-2026-12-06's model.
 */
public final class GenerateModel
{
    private GenerateModel()
    {
    }

    /** @param args the size ({@code WIDTHxLAYERS}), the file and, optionally, the context length in tokens. */
    public static void main(final String[] args) throws Exception
    {
        final ModelShape size = ModelShape.parse(args[0]);
        final ModelShape shape = args.length > 2 ? new ModelShape(size.embedding(), size.layers(), size.heads(),
            Integer.parseInt(args[2]), size.seed()) : size;
        GeneratedModel.write(shape, Path.of(args[1]));
    }
}
