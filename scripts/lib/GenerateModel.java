import java.nio.file.Path;

import io.tokenclock.fixtures.engine.GeneratedModel;
import io.tokenclock.fixtures.engine.ModelShape;

/**
 * Writes the GGUF model tokenclock generates (docs/ENGINE.md, "The model") to a file, for a server other than the
 * embedded engine: {@code java -cp tokenclock.jar scripts/lib/GenerateModel.java 256x4 model.gguf}.
 */
public final class GenerateModel
{
    private GenerateModel()
    {
    }

    /** @param args the size ({@code WIDTHxLAYERS}) and the file. */
    public static void main(final String[] args) throws Exception
    {
        GeneratedModel.write(ModelShape.parse(args[0]), Path.of(args[1]));
    }
}
